import Foundation
import PoolSizeModel
import Testing

@Suite struct WorkloadSpecParsing {
    @Test func parsesEveryField() throws {
        let spec = try WorkloadSpec.parse(
            yaml: """
                name: db
                description: "JSON around a query"
                cpu_us: 2000
                wait_us: 30000.5
                jitter: uniform
                jitter_spread: 0.1
                trial_ms: 1500
                max_tasks: 400
                critical_us: 50
                """, file: "db.yaml")
        #expect(
            spec
                == WorkloadSpec(
                    name: "db", description: "JSON around a query", cpuMicroseconds: 2000, waitMicroseconds: 30000.5,
                    jitter: .uniform, jitterSpread: 0.1, trialMilliseconds: 1500, maxTasks: 400,
                    criticalMicroseconds: 50))
        #expect(abs(spec.waitCPURatio - 15.00025) < 1e-12)
    }

    @Test func appliesDefaults() throws {
        let spec = try WorkloadSpec.parse(yaml: "name: spin\ncpu_us: 10\n", file: "spin.yaml")
        #expect(spec.waitMicroseconds == 0)
        #expect(spec.jitter == .none)
        #expect(spec.trialMilliseconds == 1000)
        #expect(spec.maxTasks == nil)
        #expect(spec.criticalMicroseconds == 0)
    }

    @Test(arguments: [
        ("name: x\n", "error: workload spec f.yaml: field 'cpu_us': required field is missing"),
        ("cpu_us: 5\n", "error: workload spec f.yaml: field 'name': required field is missing"),
        ("name: x\ncpu_us: 0\n", "error: workload spec f.yaml: field 'cpu_us': must be > 0, got 0"),
        ("name: x\ncpu_us: 5\nwait_us: -1\n", "error: workload spec f.yaml: field 'wait_us': must be >= 0, got -1"),
        ("name: x\ncpu_us: lots\n", "error: workload spec f.yaml: field 'cpu_us': expected a number, got 'lots'"),
        (
            "name: x\ncpu_us: 5\njitter: gaussian\n",
            "error: workload spec f.yaml: field 'jitter': 'gaussian' is not one of none, uniform, exponential"
        ),
        (
            "name: x\ncpu_us: 5\njitter_spread: 2\n",
            "error: workload spec f.yaml: field 'jitter_spread': must be <= 1, got 2"
        ),
        (
            "name: x\ncpu_us: 5\ntrial_ms: 1.5\n",
            "error: workload spec f.yaml: field 'trial_ms': expected a whole number, got '1.5'"
        ),
        (
            "name: x\ncpu_us: 5\ncritical_us: 6\n",
            "error: workload spec f.yaml: field 'critical_us': 6 exceeds cpu_us 5; the critical section is part of the task's CPU time"
        ),
        (
            "name: x\ncpu_us: 5\nwait_ms: 3\n",
            "error: workload spec f.yaml: field 'wait_ms': unknown field; valid fields are name, description, cpu_us, wait_us, jitter, jitter_spread, trial_ms, max_tasks, critical_us, file_write_kb, file_read_kb"
        ),
        (
            "name: \"a\\nsystem \\\"touch /tmp/p\\\"\"\ncpu_us: 5\n",
            "error: workload spec f.yaml: field 'name': contains a control character (U+000A); write it on one line without tabs or escapes"
        ),
        (
            "name: x\ndescription: \"tab\\there\"\ncpu_us: 5\n",
            "error: workload spec f.yaml: field 'description': contains a control character (U+0009); write it on one line without tabs or escapes"
        ),
        (
            "name: \"esc\\e[31m\"\ncpu_us: 5\n",
            "error: workload spec f.yaml: field 'name': contains a control character (U+001B); write it on one line without tabs or escapes"
        ),
        (
            "- a\n- b\n",
            "error: workload spec f.yaml: expected a mapping of fields (name, description, cpu_us, wait_us, jitter, jitter_spread, trial_ms, max_tasks, critical_us, file_write_kb, file_read_kb); see workloads/README.md"
        ),
    ])
    func refusesBadFieldsNamingThem(yaml: String, message: String) {
        #expect(throws: PoolSizeError.self) { try WorkloadSpec.parse(yaml: yaml, file: "f.yaml") }
        do {
            _ = try WorkloadSpec.parse(yaml: yaml, file: "f.yaml")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 65)
        }
    }

    @Test func refusesInvalidYAML() {
        do {
            _ = try WorkloadSpec.parse(yaml: "name: [unclosed\ncpu_us: 5", file: "bad.yaml")
            Issue.record("parsed invalid YAML")
        } catch {
            #expect(error.description.hasPrefix("error: workload spec bad.yaml: not valid YAML ("))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func yamlRoundTrips() throws {
        for spec in BuiltinWorkloads.all {
            #expect(try WorkloadSpec.parse(yaml: spec.yaml, file: "\(spec.name).yaml") == spec)
        }
    }

    /// Names with YAML's own syntax in them (quotes, a colon, a backquote) read back unchanged.
    @Test func yamlRoundTripsAwkwardNames() throws {
        var spec = BuiltinWorkloads.all[0]
        for name in ["x`touch /tmp/p`x", "a: b", "q'\"uote\\", "# not a comment", "- item"] {
            spec.name = name
            spec.description = name
            #expect(try WorkloadSpec.parse(yaml: spec.yaml, file: "f.yaml") == spec)
        }
    }

    /// The files in workloads/ are what users copy; they must say exactly what the built-ins do.
    @Test func shippedFilesMatchBuiltins() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for spec in BuiltinWorkloads.all {
            let path = root.appendingPathComponent("workloads/\(spec.name).yaml").path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text == spec.yaml, "workloads/\(spec.name).yaml differs from BuiltinWorkloads.\(spec.name)")
        }
    }

    @Test func builtinsCoverTheRequiredRatios() {
        #expect(BuiltinWorkloads.cpu.waitCPURatio == 0)
        #expect((10...20).contains(BuiltinWorkloads.io.waitCPURatio))
        #expect((1...4).contains(BuiltinWorkloads.mixed.waitCPURatio))
        #expect(BuiltinWorkloads.io.analyticOptimum(cores: 2) == 32)
    }
}
