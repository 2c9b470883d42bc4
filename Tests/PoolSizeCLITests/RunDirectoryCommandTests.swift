import Foundation
@testable import PoolSizeCLI
import PoolSizeKit
import Testing

/// A run directory is never lost or mixed: an existing one is refused without --force, two
/// sweeps cannot write one at once, and an interrupted one continues with --resume.
@Suite(.serialized) struct RunDirectoryCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-rundir-\(UUID())")
    static let flags = [
        "--workload", "cpu", "--sizes", "1,2", "--repeat", "2", "--warmup", "0", "--trial-ms", "100", "--seed", "7",
        "--quiet",
    ]

    func sweep(_ extra: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try EndToEndTests.run(
            ["sweep"] + Self.flags + ["--plots", scratch.appendingPathComponent("plots").path] + extra,
            environment: ["PATH": "/nonexistent"], directory: scratch)
    }

    func rows(_ run: URL) throws -> [String] {
        try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8).split(separator: "\n")
            .dropFirst().map(String.init)
    }

    /// (size, repetition) of each row.
    func keys(_ rows: [String]) -> Set<String> {
        Set(
            rows.map { row in
                let cells = row.split(separator: ","); return "\(cells[5])/\(cells[6])"
            })
    }

    @Test func anExistingRunDirectoryIsRefusedUnlessForced() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = scratch.appendingPathComponent("run")
        #expect(try sweep(["--out", run.path]).code == 0)
        let first = try rows(run)
        let again = try sweep(["--out", run.path])
        #expect(again.code == 73)
        #expect(
            again.stderr
                == "error: --out \(run.path): a run directory is already there (it has trials.csv); pass --force to replace it, or --resume \(run.path) to continue it\n"
        )
        #expect(try rows(run) == first, "the refused sweep left the trials alone")
        let forced = try sweep(["--out", run.path, "--force"])
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try rows(run).count == 4)
        // --force clears the old run first: an old file the new sweep does not write is gone.
        try "old".write(to: run.appendingPathComponent("contention.csv"), atomically: true, encoding: .utf8)
        #expect(try sweep(["--out", run.path, "--force"]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("contention.csv").path))
    }

    /// Issue 31, finding 9: `sweep --out` overwrote an observation's run directory, and a
    /// directory of the user's own report.md, machine.json, summary.csv and lowload.json,
    /// without --force, exit 0. Now both are refused with observe's code and rule (73); an
    /// observation is not replaced with --force either; --force writes into the user's directory
    /// and leaves a file of other name alone.
    @Test func aDirectoryThatHoldsNoSweepIsNotOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let observed = scratch.appendingPathComponent("observed")
        try FileManager.default.createDirectory(at: observed, withIntermediateDirectories: true)
        let observation = ["observation.json": "{}\n", "machine.json": "{}\n", "report.md": "# observed\n"]
        for (name, text) in observation {
            try text.write(to: observed.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for extra in [[], ["--force"]] {
            let refused = try sweep(["--out", observed.path] + extra)
            #expect(refused.code == 73)
            #expect(
                refused.stderr
                    == "error: --out \(observed.path): it holds an observation (observation.json), which a sweep does "
                    + "not replace, even with --force; choose another --out, or remove that directory first\n")
        }
        for (name, text) in observation {
            #expect(try String(contentsOf: observed.appendingPathComponent(name), encoding: .utf8) == text, "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: observed.appendingPathComponent("trials.csv").path))

        let mine = scratch.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        let files = [
            "report.md": "# mine\n", "machine.json": "{}\n", "summary.csv": "mine\n", "lowload.json": "{}\n",
            "notes.txt": "keep\n",
        ]
        for (name, text) in files {
            try text.write(to: mine.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let refused = try sweep(["--out", mine.path])
        #expect(refused.code == 73)
        #expect(
            refused.stderr
                == "error: --out \(mine.path): it is not empty and holds no run (lowload.json, machine.json, notes.txt, "
                + "report.md and 1 more); choose a new or empty directory, or pass --force to write the run into it "
                + "(files of the same names are replaced, nothing else is touched)\n")
        for (name, text) in files {
            #expect(try String(contentsOf: mine.appendingPathComponent(name), encoding: .utf8) == text, "\(name)")
        }
        let forced = try sweep(["--out", mine.path, "--force"])
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try rows(mine).count == 4)
        #expect(try String(contentsOf: mine.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep\n")
    }

    /// While one sweep holds the directory's lock, a second stops at once naming its PID.
    @Test func aSecondSweepOnTheSameDirectoryStopsAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = scratch.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        let lock = run.appendingPathComponent(".lock")
        try "4242\n".write(to: lock, atomically: false, encoding: .utf8)
        let fd = open(lock.path, O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let second = try sweep(["--out", run.path])
        #expect(second.code == 75)
        #expect(
            second.stderr
                == "error: \(run.path): another sweep (pid 4242) is writing this run directory; wait for it to finish or choose another --out\n"
        )
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("trials.csv").path))
    }

    /// A run cut short (two trials and a torn third row on disk, no recommendation) reports
    /// itself as partial, and --resume runs exactly the missing trials, keeping the others.
    @Test func resumeRunsOnlyTheMissingTrials() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let whole = scratch.appendingPathComponent("whole"), cut = scratch.appendingPathComponent("cut")
        #expect(try sweep(["--out", whole.path]).code == 0)
        try FileManager.default.copyItem(at: whole, to: cut)
        let kept = Array(try rows(whole).prefix(2))
        let header = String(
            try String(contentsOf: whole.appendingPathComponent("trials.csv"), encoding: .utf8).split(separator: "\n")[
                0])
        try (header + "\n" + kept.joined(separator: "\n") + "\n" + String(try rows(whole)[2].prefix(25)))
            .write(to: cut.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        for file in ["recommendation.json", "summary.csv", "report.md"] {
            try? FileManager.default.removeItem(at: cut.appendingPathComponent(file))
        }

        let report = try EndToEndTests.run(
            ["report", cut.path, "--plots", scratch.appendingPathComponent("plots-cut").path],
            environment: ["PATH": "/nonexistent"], directory: scratch)
        #expect(report.code == 0, "\(report.stderr)")
        let markdown = try String(contentsOf: cut.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("**Partial run**: 2 of 4 planned trials are missing"))

        let resumed = try sweep(["--resume", cut.path])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        // The torn row is cut before new rows are appended, and said so (silently before).
        #expect(
            resumed.stderr.hasPrefix(
                "warning: \(cut.path)/trials.csv: line 4 was cut short (the sweep stopped while writing it); it is removed and its trial runs again\n"
            ), "\(resumed.stderr)")
        let after = try rows(cut)
        #expect(after.count == 4)
        #expect(Array(after.prefix(2)) == kept, "finished trials are kept as they were")
        #expect(keys(after) == keys(try rows(whole)), "the same plan: every (size, repetition) once")
        #expect(FileManager.default.fileExists(atPath: cut.appendingPathComponent("recommendation.json").path))
        let full = try String(contentsOf: cut.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(!full.contains("Partial run"))
    }

    @Test func resumeRefusesAnotherPlan() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = scratch.appendingPathComponent("run")
        #expect(try sweep(["--out", run.path]).code == 0)
        var flags = Self.flags
        flags[flags.firstIndex(of: "7")!] = "8"
        let result = try EndToEndTests.run(
            ["sweep"] + flags + ["--resume", run.path], environment: ["PATH": "/nonexistent"], directory: scratch)
        #expect(result.code == 3)
        #expect(
            result.stderr
                == "error: --resume \(run.path): its seed was 7, this sweep's is 8; resume with the flags the run was started with (its machine.json records them)\n"
        )
        // Settings machine.json did not record before the plan was one value: refused by name too.
        for (extra, message) in [
            (["--read-ratio", "0.9"], "its --read-ratio was 0.5, this sweep's is 0.9"),
            (["--contend"], "its --contend was false, this sweep's is true"),
        ] {
            let other = try EndToEndTests.run(
                ["sweep"] + Self.flags + extra + ["--resume", run.path], environment: ["PATH": "/nonexistent"],
                directory: scratch)
            #expect(other.code == 3)
            #expect(
                other.stderr
                    == "error: --resume \(run.path): \(message); resume with the flags the run was started with (its machine.json records them)\n"
            )
        }
        let forced = try EndToEndTests.run(
            ["sweep"] + Self.flags + ["--resume", run.path, "--force"], directory: scratch)
        #expect(forced.code == 64)
        #expect(
            forced.stderr
                == "error: --resume: cannot be combined with --force; --force starts the run again, --resume continues it\n"
        )
    }

    /// A trials.csv of another column layout (an earlier version's) cannot take new rows.
    @Test func resumeRefusesAnotherColumnLayout() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = scratch.appendingPathComponent("run")
        #expect(try sweep(["--out", run.path]).code == 0)
        let trials = run.appendingPathComponent("trials.csv")
        let lines = try String(contentsOf: trials, encoding: .utf8).split(separator: "\n").map(String.init)
        // A column this poolsize does not write: the file reads, but rows cannot be appended to it.
        let other = lines.enumerated().map { $0.offset == 0 ? $0.element + ",note" : $0.element + ",x" }
        try (other.prefix(2).joined(separator: "\n") + "\n").write(to: trials, atomically: true, encoding: .utf8)
        let result = try sweep(["--resume", run.path])
        #expect(result.code == 3)
        #expect(
            result.stderr
                == "error: --resume \(run.path): its trials.csv has other columns than this poolsize writes, so new rows cannot be appended; start it again with --force; resume with the flags the run was started with (its machine.json records them)\n"
        )
    }

    @Test func emptyOutIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--out", ""])
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --out: is empty; name a directory, e.g. --out results/my-run (or leave --out out for results/<run-id>)\n"
        )
    }
}

@Suite struct DryRunTests {
    /// A task that declares no times (a command): the search starts at the formula's N from the
    /// W/C the run measures, so the dry run names no size, never a list the run will not measure.
    @Test func aTaskWithoutDeclaredTimesNamesNoSizes() throws {
        let result = try EndToEndTests.run(["sweep", "--exec", "true", "--cores", "2", "--dry-run"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(" at sizes the measured W/C decides (from its formula's N), about "),
            "\(result.stdout)")
    }

    @Test func dryRunPrintsThePlanAndMeasuresNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-dry-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try EndToEndTests.run([
            "sweep", "--workload", "io", "--sizes", "1,2,4", "--repeat", "2", "--warmup", "1", "--trial-ms", "100",
            "--dry-run", "--out", dir.path,
        ])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("dry run: 7 trials at sizes 1,2,4, about "))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("; nothing measured") == true)
        // A 100 ms trial of 16 ms tasks is lengthened to 5 × (2 × 16 + 16) ms = 240 ms; with the
        // 16 ms drain and 30 ms overhead 0.286 s. Low load: 2 rounds of 0.546 s; warm-up
        // 0.24 + 0.046 s; 1.5 s fixed: 1.5 + 1.092 + 0.286 + 6 × 0.286 = 4.594 s.
        #expect(
            Array(lines.dropFirst()) == [
                "low-load phase: about 2 s (one worker until W/C is known to 1%)",
                "warm-up: 1 trial",
                "grid: 3 sizes × 2 repetitions × 1 combination = 6 trials, 0.286 s each on average with drain and overhead",
                "estimated time: about 5 s, up to 1 MiB of memory",
            ])
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    /// The default sweep searches: the dry run gives the expected and the most trials.
    @Test func dryRunOfAnAdaptiveSearchGivesExpectedAndMaximum() throws {
        let result = try EndToEndTests.run(["sweep", "--workload", "io", "--cores", "2", "--dry-run"])
        #expect(result.code == 0)
        // 19 measured + 1 warm-up: the mean of 16 seeded searches on a soft knee with 1% noise,
        // from the formula's 32 and its double 64 (still rising: 128), then bisecting down.
        #expect(result.stdout.hasPrefix("dry run: 20 trials expected (at most 79) at sizes 32,34,36,40,48,64,128, "))
        #expect(result.stdout.contains("\nadaptive search: 19 trials expected, at most 78 "))
        #expect(result.stdout.contains("; the grid would run 48\n"))
    }

    @Test func budgetFlagsAreCheckedBeforeAnythingRuns() throws {
        for (arguments, message) in [
            (
                ["--budget", "30s", "--sizes", "1,2"],
                "error: --budget: chooses sizes and repetitions itself and needs --sizes auto; drop --sizes or --budget\n"
            ),
            (
                ["--budget", "30s", "--search", "grid"],
                "error: --budget: fits an adaptive search to the time; drop --search grid or --budget\n"
            ),
            (["--budget", "30"], "error: --budget: '30' has no unit; "),
        ] {
            let result = try EndToEndTests.run(["sweep", "--workload", "io", "--cores", "2", "--dry-run"] + arguments)
            #expect(result.code == 64)
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
    }

    /// A phase that starts after the trial ends would never run: refused before anything runs,
    /// and accepted once the trials are longer than its start.
    @Test func aPhaseAfterTheTrialsEndIsRefused() throws {
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-phase-\(UUID()).yaml")
        defer { try? FileManager.default.removeItem(at: spec) }
        try "name: step\ncpu_us: 1000\nwait_us: 3000\nphases:\n  - start_ms: 10000\n    wait_us: 9000\n".write(
            to: spec, atomically: true, encoding: .utf8)
        let refused = try EndToEndTests.run(["sweep", "--workload", spec.path, "--sizes", "1,2", "--dry-run"])
        #expect(refused.code == 64)
        #expect(
            refused.stderr
                == "error: --trial-ms: is 1000 ms, but the workload's phase at 10000 ms starts after the trial's end, so it would never run; make the trials longer than 10000 ms\n"
        )
        let accepted = try EndToEndTests.run([
            "sweep", "--workload", spec.path, "--sizes", "1,2", "--trial-ms", "12000", "--dry-run",
        ])
        #expect(accepted.code == 0, "\(accepted.stderr)")
    }

    /// `--sizes-from` measures the sizes a recorded run measured, each with every repetition
    /// (a grid), so that compare finds every configuration in both runs.
    @Test func sizesFromARunMeasuresItsSizes() throws {
        let run = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/run-io").path
        let result = try EndToEndTests.run([
            "sweep", "--workload", "io", "--cores", "2", "--repeat", "3", "--warmup", "0", "--sizes-from", run,
            "--dry-run",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("dry run: 24 trials at sizes 1,4,8,16,24,32,40,64, about "), "\(result.stdout)")
        #expect(result.stdout.contains("grid: 8 sizes × 3 repetitions × 1 combination = 24 trials"))
        for (arguments, code, message) in [
            (
                ["--sizes-from", run, "--sizes", "1,2"], Int32(64),
                "error: --sizes-from: takes the sizes from a run, so --sizes must not be given too; drop one\n"
            ),
            (["--sizes-from", "/nonexistent/run"], Int32(66), "error: /nonexistent/run"),
        ] {
            let refused = try EndToEndTests.run(["sweep", "--workload", "io", "--cores", "2", "--dry-run"] + arguments)
            #expect(refused.code == code, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix(message), "\(arguments): \(refused.stderr)")
        }
    }

    /// `--sizes-from` holds a run's sizes to `--sizes`' bounds and words, and a path that is a
    /// file is called one, not "not found".
    @Test func sizesFromRefusesWhatSizesRefuses() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/run-io/trials.csv")
        let lines = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-sizes-from-\(UUID())")
        let run = scratch.appendingPathComponent("big")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        var cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        cells[5] = "5000"
        try (lines[0] + "\n" + cells.joined(separator: ",") + "\n").write(
            to: run.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        let file = scratch.appendingPathComponent("notes.txt")
        try "not a run\n".write(to: file, atomically: true, encoding: .utf8)
        for (path, code, message) in [
            (
                run.path, Int32(64),
                "error: --sizes-from: pool size 5000 exceeds the maximum 4096 (\(run.path)/trials.csv measured it); pass a run measured at sizes 1 to 4096, or list the sizes with --sizes\n"
            ),
            (
                file.path, 65,
                "error: \(file.path): is a file, not a run directory; pass a run directory written by 'poolsize sweep' (results/<run-id>)\n"
            ),
        ] {
            let refused = try EndToEndTests.run([
                "sweep", "--workload", "io", "--cores", "2", "--dry-run", "--sizes-from", path,
            ])
            #expect(refused.code == code, "\(path): \(refused.stderr)")
            #expect(refused.stderr == message)
        }
        let sizes = try EndToEndTests.run(["sweep", "--workload", "io", "--cores", "2", "--dry-run", "--sizes", "5000"])
        #expect(sizes.code == 64)
        #expect(sizes.stderr == "error: --sizes: pool size 5000 exceeds the maximum 4096\n")
    }

    @Test func aBudgetFitsTheDryRunsEstimate() throws {
        let result = try EndToEndTests.run([
            "sweep", "--workload", "io", "--cores", "2", "--budget", "10s", "--dry-run",
        ])
        #expect(result.code == 0)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("estimated time: about ") })
        let seconds = try #require(Int(line.dropFirst("estimated time: about ".count).prefix { $0.isNumber }))
        #expect(seconds <= 10)
    }

    /// 64 sizes × 30 repetitions of io trials: 0.646 s each up to 10 queues (300 completions
    /// take longer than the window), about 0.35 s from the knee on, 0.411 s on average: 789 s of
    /// trials, with the low-load phase, warm-up and fixed costs 792 s.
    @Test func aLongSweepSaysSoBeforeItStarts() throws {
        var plan = try SweepCommand.parse(["--cores", "2", "--sizes", "1...64", "--repeat", "30"]).makePlan()
        plan.search = .grid
        #expect(plan.estimate.longWarning?.hasPrefix("note: this sweep is estimated at about 14 min; ") == true)
    }
}
