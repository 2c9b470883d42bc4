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
            "error: workload spec f.yaml: field 'wait_ms': unknown field; valid fields are name, description, cpu_us, wait_us, jitter, jitter_spread, trial_ms, max_tasks, critical_us, file_write_kb, file_read_kb, phases"
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
            "name: x\ncpu_us: 5\nphases: 3\n",
            "error: workload spec f.yaml: field 'phases': expected a list of at most 100 phases, each with start_ms and cpu_us and/or wait_us"
        ),
        (
            "name: x\ncpu_us: 5\nphases:\n  - cpu_us: 9\n",
            "error: workload spec f.yaml: field 'phases[0].start_ms': required field is missing"
        ),
        (
            "name: x\ncpu_us: 5\nphases:\n  - start_ms: 0\n    wait_ms: 9\n",
            "error: workload spec f.yaml: field 'phases[0].wait_ms': unknown field; valid fields are start_ms, cpu_us, wait_us"
        ),
        (
            "name: x\ncpu_us: 5\nphases:\n  - start_ms: 500\n  - start_ms: 500\n",
            "error: workload spec f.yaml: field 'phases[1].start_ms': 500 does not come after the previous phase's 500; list phases in order of start"
        ),
        (
            "name: x\ncpu_us: 5\nphases:\n  - start_ms: 5\n    wait_us: -2\n",
            "error: workload spec f.yaml: field 'phases[0].wait_us': must be >= 0, got -2"
        ),
        (
            "- a\n- b\n",
            "error: workload spec f.yaml: expected a mapping of fields (name, description, cpu_us, wait_us, jitter, jitter_spread, trial_ms, max_tasks, critical_us, file_write_kb, file_read_kb, phases); see workloads/README.md"
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

    /// A backend that slows down threefold at 10 s and recovers at 20 s: each phase's times from
    /// its start, a field it leaves out taken from the spec; before the first phase, the spec's.
    @Test func phasesReplayAStepInWC() throws {
        let spec = try WorkloadSpec.parse(
            yaml: """
                name: step
                cpu_us: 1000
                wait_us: 15000
                phases:
                  - start_ms: 10000
                    wait_us: 45000
                  - start_ms: 20000
                    cpu_us: 500
                    wait_us: 15000
                """, file: "step.yaml")
        #expect(
            spec.phases == [
                WorkloadPhase(startMilliseconds: 10_000, cpuMicroseconds: 1000, waitMicroseconds: 45_000),
                WorkloadPhase(startMilliseconds: 20_000, cpuMicroseconds: 500, waitMicroseconds: 15_000),
            ])
        #expect(spec.means(atMilliseconds: 9_999) == (1000, 15_000))
        #expect(spec.means(atMilliseconds: 10_000) == (1000, 45_000))
        #expect(spec.means(atMilliseconds: 25_000) == (500, 15_000))
        #expect(try WorkloadSpec.parse(yaml: spec.yaml, file: "step.yaml") == spec)
        let json = try JSONEncoder().encode(spec)
        #expect(try JSONDecoder().decode(WorkloadSpec.self, from: json) == spec)
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
