import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import PoolSizeOutput
import Testing
import PoolSizeAnalysis

@Suite struct PlanCommandTests {
    /// The issue's judged command.
    @Test func judgedCommandPlans72ThreadsOnOneHost() throws {
        let command = try PlanCommand.parse([
            "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
            "--target-utilization", "1",
        ])
        let plan = try CapacityPlanner.plan(command.makeInputs())
        #expect(plan.threadsPerHost == 72)
        #expect(plan.hosts == 1)
        #expect(plan.utilization == 0.625)
        #expect(
            runCLI([
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--target-utilization", "1",
            ]) == (0, []))
        #expect(
            runCLI([
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--target-utilization", "1", "--format", "json",
            ]) == (0, []))
    }

    @Test func defaultsAndSpellings() throws {
        let inputs = try PlanCommand.parse([
            "--wait", "0.5s", "--cpu", "500µs", "--target-rate", "72000/min", "--cores-per-host", "4", "--headroom",
            "30%", "--latency-slo", "1s", "--slo-percentile", "99.9",
        ]).makeInputs()
        #expect(
            inputs
                == PlanInputs(
                    waitSeconds: 0.5, cpuSeconds: 0.0005, targetRatePerSecond: 1200, coresPerHost: 4,
                    targetUtilization: 0.8, headroom: 0.3, latencySLOSeconds: 1, sloPercentile: 99.9))
    }

    @Test func fromTakesWCAndCoresFromTheRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try JSONExport.serialize(
            LowLoadEstimate(
                tasks: 50, seconds: 0.5, cpuMicrosecondsPerTask: 5000, waitMicrosecondsPerTask: 40000, ratio: nil)
        )
        .write(to: dir.appendingPathComponent("lowload.json"), atomically: true, encoding: .utf8)
        try FixtureRun.machineJSON(
            id: "r", spec: WorkloadSpec(name: "io", cpuMicroseconds: 5000, waitMicroseconds: 40000), cores: 8
        ).write(
            to: dir.appendingPathComponent("machine.json"), atomically: true, encoding: .utf8)
        // Cores default to the run's 8, so this is the judged case again: 72 threads, 1 host.
        let plan = try CapacityPlanner.plan(
            PlanCommand.parse(["--from", dir.path, "--target-rate", "1000", "--target-utilization", "100%"])
                .makeInputs())
        #expect(plan.threadsPerHost == 72)
        #expect(plan.hosts == 1)
        #expect(plan.source == dir.path)
        #expect(
            runCLI(["plan", "--from", dir.path, "--wait", "40ms", "--target-rate", "1000/s"]) == (
                64, ["error: --from: takes W and C from the run; drop --wait and --cpu, or drop --from to declare them"]
            ))
    }

    @Test(arguments: [
        (
            ["plan", "--wait", "40", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8"], 64,
            "error: --wait: '40' has no unit; write it like 40ms, 500us (or 500µs), 1.5s or 2min"
        ),
        (
            ["plan", "--wait", "40ms", "--cpu", "0ms", "--target-rate", "1000/s", "--cores-per-host", "8"], 64,
            "error: --cpu: must be greater than zero, got 0 ms; every task burns some CPU, e.g. --cpu 5ms"
        ),
        (
            ["plan", "--wait=-1ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8"], 64,
            "error: --wait: must not be negative, got -1 ms; write --wait 0ms for a task that never waits"
        ),
        (
            ["plan", "--wait", "40ms", "--target-rate", "1000/s", "--cores-per-host", "8"], 64,
            "error: --cpu: is required without --from; declare both, e.g. --wait 40ms --cpu 5ms, or take them from a sweep with --from RUN_DIR"
        ),
        (
            ["plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s"], 64,
            "error: --cores-per-host: is required without --from; e.g. --cores-per-host 8"
        ),
        (
            ["plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate=-5/s", "--cores-per-host", "8"], 64,
            "error: --target-rate: must be greater than zero, got -5/s; write it like 1200/s"
        ),
        (
            ["plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "lots", "--cores-per-host", "8"], 64,
            "error: --target-rate: 'lots' is not a rate; write it like 1200/s, 72000/min or 1200 (per second)"
        ),
        (
            [
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--headroom", "30",
            ], 64, "error: --headroom: '30' is ambiguous; write 30% for a percentage or a fraction like 0.3"
        ),
        (
            [
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--target-utilization", "120%",
            ], 64, "error: --target-utilization: must be in (0, 1], got 1.2; write 0.8 for 80%"
        ),
        (
            [
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--latency-slo", "30ms",
            ], 64,
            "error: --latency-slo: 30 ms cannot be met: W + C alone take 45 ms per task before any queueing, and no number of hosts or threads shortens that; relax the SLO or shorten W or C"
        ),
        (
            [
                "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "1000/s", "--cores-per-host", "8",
                "--format", "yaml",
            ], 64,
            "error: The value 'yaml' is invalid for '--format <format>'. Please provide one of 'table' and 'json'. (see 'poolsize plan --help')"
        ),
        (
            ["plan", "--from", "/nonexistent/run", "--target-rate", "1000/s"], 66,
            "error: /nonexistent/run: not found; --from takes a run directory written by 'poolsize sweep' (results/<run-id>)"
        ),
    ])
    func impossibleInputsAreExplained(arguments: [String], code: Int32, message: String) {
        let result = runCLI(arguments)
        #expect(result.code == code)
        #expect(result.errors == [message])
    }
}

/// `plan --from` a run that measured no W and C is not damaged: it is a load tool run alone,
/// which has no low-load phase (its lowload.json records no task, C = W = 0). Before, the plan
/// called poolsize's own file damaged (exit 65, "C = 0 µs and W = 0 µs per task are not times a
/// sweep measures").
@Suite struct PlanFromRunWithoutWaitCPUTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    @Test func aLoadToolRunSaysPlanNeedsWAndC() throws {
        let run = Self.fixtures.appendingPathComponent("run-load-tool").path
        #expect(
            runCLI(["plan", "--from", run, "--target-rate", "100/s"]) == (
                3,
                [
                    "error: \(run): plan needs a task's W and C, and this run measured none: a load tool run alone (sweep --load without --server) prints no CPU time per request, so that sweep measured no W/C and sized by its measured knee alone; sweep the service with --server CMD (and your --load) to measure them, or declare --wait and --cpu instead of --from"
                ]
            ))
    }

    /// Without lowload.json, the plan's target still says the run measured none.
    @Test func aLoadToolRunWithoutItsLowLoadFileSaysSoToo() throws {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-plan-tool-\(UUID())")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("run-load-tool"), to: run)
        defer { try? FileManager.default.removeItem(at: run) }
        try FileManager.default.removeItem(at: run.appendingPathComponent("lowload.json"))
        let result = runCLI(["plan", "--from", run.path, "--target-rate", "100/s"])
        #expect(result.code == 3)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.hasPrefix("error: \(run.path): plan needs a task's W and C") == true)
    }
}

/// `plan --from` a damaged run: the file and key are named, with a readable figure. Before, a
/// formula or W/C interval of 1e-300, 1e300 or inf in recommendation.json trapped (exit 132)
/// turning the knee-adjusted threads into an Int, and an absurd lowload.json was blamed on
/// --wait with a 300-digit number.
@Suite(.serialized) struct PlanFromDamagedRunTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/extremes/closed")

    func damaged(_ file: String, _ key: String, _ value: String) throws -> URL {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-plan-damaged-\(UUID())")
        try FileManager.default.copyItem(at: Self.fixture, to: run)
        let url = run.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        // Every occurrence: recommendation.json repeats the best combination.
        let pattern = try NSRegularExpression(pattern: "(\"\(key)\" : )[^,\\n]+")
        let replaced = pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1\(value)")
        try replaced.write(to: url, atomically: true, encoding: .utf8)
        return run
    }

    @Test(arguments: [
        (
            "recommendation.json", "formula_queue_count_exact", "1e-300",
            "key 'formula_queue_count_exact' is 0, not a figure a sweep records (0.05 to 1000000000); rerun the sweep, or declare --wait and --cpu instead of --from"
        ),
        (
            "recommendation.json", "wait_cpu_ratio_ci95_upper", "\"inf\"",
            "key 'wait_cpu_ratio_ci95_upper' is ∞, not a figure a sweep records (0 to 1000000); rerun the sweep, or declare --wait and --cpu instead of --from"
        ),
        (
            "recommendation.json", "wait_cpu_ratio_ci95_lower", "1e300",
            "key 'wait_cpu_ratio_ci95_lower' is 1e+300, not a figure a sweep records (-1000000 to 1000000); rerun the sweep, or declare --wait and --cpu instead of --from"
        ),
        (
            "lowload.json", "wait_microseconds_per_task", "1e300",
            "C = 103 µs and W = 1e+300 µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most 1000000); rerun the sweep, or pass --wait and --cpu instead of --from"
        ),
        (
            "lowload.json", "cpu_microseconds_per_task", "1e-300",
            "C = 0 µs and W = 964 µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most 1000000); rerun the sweep, or pass --wait and --cpu instead of --from"
        ),
    ])
    func aDamagedFileIsNamed(file: String, key: String, value: String, message: String) throws {
        let run = try damaged(file, key, value)
        defer { try? FileManager.default.removeItem(at: run) }
        let result = try EndToEndTests.run(["plan", "--from", run.path, "--target-rate", "100/s"])
        #expect(result.code == 65)
        #expect(result.stderr == "error: \(run.appendingPathComponent(file).path): \(message)\n")
    }

    @Test func coresNoMachineHasAreNamed() throws {
        // The effective count is derived from the inputs, so only an override can make it 0
        // (an effective count its inputs do not give is refused as damaged before this).
        let run = try damaged("machine.json", "effective", #"0, "override" : 0"#)
        defer { try? FileManager.default.removeItem(at: run) }
        let result = try EndToEndTests.run(["plan", "--from", run.path, "--target-rate", "100/s"])
        #expect(result.code == 65)
        #expect(
            result.stderr
                == "error: \(run.appendingPathComponent("machine.json").path): 0 cores is not a machine's (1 to 4096); rerun the sweep, or declare --wait, --cpu and --cores-per-host instead of --from\n"
        )
    }
}
