import Foundation
@testable import PoolSizeCLI
import PoolSizeKit
import PoolSizeModel
import Testing

/// Runs the command in-process and captures its one error line.
func runCLI(_ arguments: [String]) -> (code: Int32, errors: [String]) {
    var errors: [String] = []
    let code = PoolSizeCommand.runMain(arguments) { errors.append($0) }
    return (code, errors)
}

@Suite struct CLIParsing {
    @Test func sweepDefaults() throws {
        let command = try SweepCommand.parse([])
        #expect(command.workload.workload == nil)
        #expect(command.trials.sizes == "auto")
        #expect(command.trials.repeatCount == nil)
        #expect(try command.makePlan().repetitions == 3)
        #expect(command.model.targetUtilization == 1)
        #expect(command.model.tolerance == 0.05)
        let plan = try command.makePlan()
        #expect(plan.spec == BuiltinWorkloads.io)
        #expect(plan.sizes == .auto)
        #expect(plan.cores == MachineProbe.coreCount().effective, "without --cores the sweep sizes for this machine")
    }

    @Test func sweepOptions() throws {
        let command = try SweepCommand.parse([
            "--workload", "mixed", "--sizes", "1...4", "--cores", "8", "--target-utilization", "0.8", "--repeat", "5",
            "--seed", "9", "--trial-ms", "200", "--quiet", "--out", "/tmp/x",
        ])
        let plan = try command.makePlan()
        #expect(plan.spec.name == "mixed")
        #expect(plan.sizes == .explicit([1, 2, 3, 4]))
        #expect(plan.cores == 8)
        #expect(plan.targetUtilization == 0.8)
        #expect(plan.repetitions == 5)
        #expect(plan.seed == 9)
        #expect(plan.trialMilliseconds == 200)
        #expect(command.output.quiet)
        #expect(command.output.out == "/tmp/x")
    }

    @Test func openLoopOptions() throws {
        let plan = try SweepCommand.parse([
            "--arrival-rate", "48000/min", "--latency-slo", "40ms", "--slo-percentile", "p99.9", "--arrivals",
            "uniform",
        ]).makePlan()
        #expect(
            plan.load.arrival
                == ArrivalPlan(rates: [800], process: .uniform, latencySLOMicroseconds: 40_000, sloPercentile: 99.9))
        #expect(plan.search == .grid)
        #expect(plan.repetitions == 3)
        let range = try SweepCommand.parse(["--arrival-rate", "200/s...1000/s:400"]).makePlan()
        #expect(range.load.arrival?.rates == [200, 600, 1000])
        #expect(range.load.arrival?.process == .poisson)
        #expect(range.load.arrival?.sloPercentile == 99)
        #expect(range.repetitions == 1, "a range of rates defaults to one repetition per rate and size")
        #expect(
            try SweepCommand.parse(["--arrival-rate", "200/s...1000/s:400", "--repeat", "2"]).makePlan().repetitions
                == 2)
        // The dry run names the trials: 3 rates × 6 sizes × 1 repetition + 1 warm-up.
        let estimate = range.estimate
        #expect(estimate.rates == 3)
        #expect(estimate.trials == 3 * estimate.sizes.count + 1)
        #expect(
            estimate.plan.contains("open loop: 3 rates × \(estimate.sizes.count) sizes × 1 repetition × 1 combination"))
    }

    @Test func runIDsSortAndNameTheWorkload() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(RunID.make(workload: "io", date: date) == "20261118-110640-io")
        #expect(RunID.make(workload: "my spec/x", date: date) == "20261118-110640-my_spec_x")
    }
}

@Suite struct CLIErrors {
    @Test(arguments: [
        (
            ["sweep", "--workload", "disk"], 64,
            "error: --workload: unknown workload 'disk'; use one of cpu, io, mixed, file-io, or a path to a spec file (see workloads/README.md)"
        ),
        (
            ["sweep", "--sizes", ""], 64,
            "error: --sizes: no sizes given; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        (["sweep", "--sizes", "0"], 64, "error: --sizes: pool size 0 is not positive; every size must be at least 1"),
        (["sweep", "--sizes=-3,4"], 64, "error: --sizes: pool size -3 is not positive; every size must be at least 1"),
        (
            ["sweep", "--sizes", "a,b"], 64,
            "error: --sizes: 'a' is not a whole number; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        (["sweep", "--cores", "0"], 64, "error: --cores: must be 1 to 4096, got 0"),
        (["sweep", "--cores", "100000"], 64, "error: --cores: must be 1 to 4096, got 100000"),
        (
            ["sweep", "--cores", "two"], 64,
            "error: The value 'two' is invalid for '--cores <cores>' (see 'poolsize sweep --help')"
        ),
        (
            ["sweep", "--target-utilization", "1.5"], 64,
            "error: --target-utilization: must be 0.05 to 1, got 1.5; write 0.8 for 80%"
        ),
        (
            ["sweep", "--repeat", "0"], 64,
            "error: --repeat: must be 1 to 100, got 0; 3 gives a spread, 5 lets compare test significance"
        ),
        (["sweep", "--tolerance", "0.7"], 64, "error: --tolerance: must be in (0, 0.5), got 0.7; write 0.05 for 5%"),
        (["sweep", "--nonsense"], 64, "error: Unknown option '--nonsense' (see 'poolsize sweep --help')"),
        (["frobnicate"], 64, "error: Unexpected argument 'frobnicate' (see 'poolsize --help')"),
        (
            ["sweep", "--latency-slo", "40ms"], 64,
            "error: --latency-slo: applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop --latency-slo"
        ),
        (
            ["sweep", "--arrivals", "uniform"], 64,
            "error: --arrivals: applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop --arrivals"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--slo-percentile", "99"], 64,
            "error: --slo-percentile: sets the percentile of --latency-slo; add --latency-slo (e.g. 40ms) or drop --slo-percentile"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--latency-slo", "40ms", "--slo-percentile", "95"], 64,
            "error: --slo-percentile: '95' is not a recorded percentile; use one of 50, 90, 99, 99.9"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--latency-slo", "40"], 64,
            "error: --latency-slo: '40' has no unit; write it like 40ms, 500us (or 500µs), 1.5s or 2min"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--latency-slo", "0ms"], 64,
            "error: --latency-slo: must be more than 0 and at most 1h, got 0ms; write it like 40ms"
        ),
        (
            ["sweep", "--arrival-rate=-5/s"], 64,
            "error: --arrival-rate: a rate must be more than 0, got '-5/s'; write it like 800/s"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--search", "adaptive"], 64,
            "error: --search: adaptive searches for the throughput knee of a closed loop; an open-loop sweep (--arrival-rate) measures the sizes around the rate's load: drop --search"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--budget", "30s"], 64,
            "error: --budget: fits an adaptive search to the time and does not apply to --arrival-rate; set the trials with --sizes, --repeat and --trial-ms"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--trial-margin", "0.02"], 64,
            "error: --trial-margin: does not apply: an open loop's trials run their length to see the arrivals of every rate; drop it"
        ),
        (
            ["sweep", "--trial-margin", "0.7"], 64,
            "error: --trial-margin: must be in (0, 0.5), got 0.7; write 0.02 for 2%"
        ),
        (
            ["sweep", "--arrival-rate", "800/s", "--arrivals", "bursty"], 64,
            "error: The value 'bursty' is invalid for '--arrivals <arrivals>'. Please provide one of 'poisson', 'uniform' or 'tool-paced'. (see 'poolsize sweep --help')"
        ),
        (
            ["sweep", "--workload", "/nonexistent/spec.yaml"], 66,
            "error: /nonexistent/spec.yaml: not found; --workload takes a spec file or one of cpu, io, mixed, file-io"
        ),
    ])
    func badInputGetsOneLineAndAnExitCode(arguments: [String], code: Int32, message: String) {
        let result = runCLI(arguments)
        #expect(result.code == code)
        #expect(result.errors == [message])
    }

    @Test func malformedSpecFileNamesTheField() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-bad-\(UUID()).yaml")
        try "name: bad\ncpu_us: 100\nwait_us: soon\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI(["sweep", "--workload", file.path])
        #expect(result.code == 65)
        #expect(result.errors == ["error: workload spec \(file.path): field 'wait_us': expected a number, got 'soon'"])
    }

    /// An unwritable --out fails before any trial runs, naming the directory and the fix.
    @Test func unwritableOutFailsFirst() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-notadir-\(UUID())")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI(["sweep", "--quiet", "--out", file.appendingPathComponent("run").path])
        #expect(result.code == 73)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.hasPrefix("error: cannot write \(file.path)/run: ") == true)
        #expect(
            result.errors.first?.hasSuffix(
                "; choose a writable location (--out for the run directory, --plots for the charts)") == true)
        // Refused before anything ran: nothing is left where the run would have gone.
        #expect(!FileManager.default.fileExists(atPath: file.appendingPathComponent("run").path))
    }

    @Test func listNamesEveryAxisValue() {
        let text = ListCommand.render()
        for name in ["cpu", "io", "mixed"] + PoolKind.allCases.map(\.rawValue) + QoSTier.allCases.map(\.rawValue)
            + PrimitiveKind.allCases.map(\.rawValue)
        {
            #expect(text.contains("  \(name) "), "list lacks \(name)")
        }
    }
}

/// Bounded work: a plan typed by mistake is refused before it runs, with its estimate.
@Suite struct BoundedWorkTests {
    @Test(arguments: [
        (
            ["--repeat", "1000000000"],
            "error: --repeat: must be 1 to 100, got 1000000000; 3 gives a spread, 5 lets compare test significance"
        ),
        (["--warmup", "1000000"], "error: --warmup: must be 0 to 20, got 1000000"),
        (["--trial-ms", "1000000000000"], "error: --trial-ms: must be 10 to 600000 (10 minutes), got 1000000000000"),
    ])
    func boundsAreFlagErrors(arguments: [String], message: String) throws {
        let command = try SweepCommand.parse(arguments)
        #expect(throws: PoolSizeError.self) { try command.makePlan() }
        do { _ = try command.makePlan() } catch { #expect(error.description == message && error.exitCode == 64) }
    }

    /// Every size from 1 to 4096, 100 repetitions, every pool (the adaptive one too), tier and primitive: years.
    @Test func aPlanOverADayIsRefusedWithItsEstimate() throws {
        let command = try SweepCommand.parse([
            "--sizes", "1...4096", "--repeat", "100", "--pool", "all", "--qos", "all", "--primitive", "all",
        ])
        do {
            _ = try command.makePlan()
            Issue.record("planned")
        } catch {
            #expect(error.exitCode == 64)
            #expect(
                error.description.hasPrefix(
                    "error: --sizes/--repeat: the plan is 147456001 trials at sizes 1…4096 (4096 sizes), about "))
            #expect(
                error.description.hasSuffix(
                    "over the 24 h a sweep may take; measure fewer sizes, axes or repetitions, or shorter trials (--trial-ms)"
                ))
        }
    }

    @Test func aPlanOverTheMachinesMemoryIsRefused() throws {
        let estimate = SweepEstimate(sizes: [1, 4096], trials: 10, seconds: 10, bytes: 64 * 1024 * 1024 * 1024)
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--sizes/--repeat",
                message:
                    "the plan is 10 trials at sizes 1,4096, about 10 s, up to 64 GiB, over this machine's 24 GiB of memory; measure fewer sizes, axes or repetitions, or shorter trials (--trial-ms)"
            )
        ) {
            try SweepCommand.checkBounded(estimate, memory: 24 * 1024 * 1024 * 1024)
        }
    }

    /// The io grid's estimate: 16 auto sizes × 3 repetitions + 1 warm-up, each trial closing once
    /// its throughput is known (the default margin) at the rate the curve gives its size (16 ms
    /// tasks, the knee at 2 × (1 + 15) = 32): shorter than with every window whole, and no trial
    /// shorter than its warm-up, shortest window, drain and overhead (0.12 + 0.128 + 0.046 s).
    @Test func estimateOfTheDefaultGrid() throws {
        let plan = try SweepCommand.parse(["--cores", "2", "--search", "grid"]).makePlan()
        let estimate = plan.estimate
        #expect(estimate.sizes == SizeGrid.auto(prediction: 32, cores: 2))
        #expect(estimate.trials == estimate.sizes.count * 3 + 1)
        let model = SweepTimeModel(plan: plan)
        let trials = estimate.sizes.map {
            model.expectedSecondsPerTrial(throughputPerSecond: SweepPlan.softCurve($0, knee: 32) / 0.016)
        }
        #expect(abs(estimate.seconds - model.seconds(trialSeconds: 3 * trials.reduce(0, +), warmups: 1)) < 1e-9)
        #expect(estimate.seconds < model.seconds(trials: 48, warmups: 1) - 1)
        #expect(trials.allSatisfy { $0 >= 0.294 - 1e-9 && $0 <= 0.646 + 1e-9 })
        #expect(abs(trials[0] - 0.646) < 1e-9 && trials[trials.count - 1] < 0.4)
    }

    @Test func specFieldsHaveUpperBounds() {
        #expect(
            throws: PoolSizeError.invalidSpec(
                file: "f.yaml", field: "cpu_us", message: "must be <= 60000000, got 1000000000000")
        ) {
            try WorkloadSpec.parse(yaml: "name: x\ncpu_us: 1e12\n", file: "f.yaml")
        }
        #expect(
            throws: PoolSizeError.invalidSpec(
                file: "f.yaml", field: "trial_ms", message: "must be <= 600000, got 9999999")
        ) {
            try WorkloadSpec.parse(yaml: "name: x\ncpu_us: 5\ntrial_ms: 9999999\n", file: "f.yaml")
        }
    }
}

/// Messages say what is wrong, not something else.
@Suite struct HonestMessageTests {
    @Test func aRangeEndingBelowOneIsNotSuggestedBackwards() {
        #expect(
            throws: PoolSizeError.invalidParameter(
                .sizes, message: "pool size 0 is not positive; every size must be at least 1")
        ) {
            try SizeSelection.parse("1...0")
        }
        #expect(
            throws: PoolSizeError.invalidParameter(.sizes, message: "range '8...2' runs backwards; write 2...8")
        ) {
            try SizeSelection.parse("8...2")
        }
    }

    @Test func aDirectoryAsWorkloadIsNamedAsOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-wl-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: PoolSizeError.invalidParameter(
                .workload,
                message:
                    "'\(dir.path)' is a directory; pass a spec file in it (such as \(dir.path)/io.yaml) or one of cpu, io, mixed, file-io"
            )
        ) {
            try WorkloadLoader.load(dir.path)
        }
    }

    @Test func aHeaderOnlyCSVIsDescribedAsEmpty() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-header-\(UUID()).csv")
        try "pool_size,throughput_per_s\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try EndToEndTests.run(["fit", file.path])
        #expect(result.code == 65)
        #expect(
            result.stderr
                == "error: \(file.path): has a header but no data rows; pass a trials.csv or summary.csv with measurements\n"
        )
    }

    /// An output directory a flag names that cannot be written exits 73, as an unwritable --out
    /// does (the README's "cannot write the output directory"; it was 64, a usage error), in one
    /// line naming the flag, before anything runs.
    @Test func unwritablePlotsFailBeforeTheSweep() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-plots-file-\(UUID())")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-plots-run-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        let charts = file.appendingPathComponent("charts").path
        let quick = ["--sizes", "1", "--repeat", "1", "--out", out.path]
        let cases: [(arguments: [String], flag: String)] = [
            (["sweep"] + quick + ["--plots", charts], "--plots"),
            (["sweep", "--exec", "true", "--exec-output", charts] + quick, "--exec-output"),
            (["observe", "1", "--out", out.path, "--plots", charts], "--plots"),
        ]
        for (arguments, flag) in cases {
            let result = try EndToEndTests.run(arguments)
            #expect(result.code == 73, "\(arguments)")
            #expect(
                result.stderr
                    == "error: \(flag): cannot write \(charts): \(file.path) is a file, not a directory; choose a writable directory\n"
            )
            // Nothing was measured (observe has made its run directory by then, and left it empty).
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty, "\(arguments)")
        }
    }
}
