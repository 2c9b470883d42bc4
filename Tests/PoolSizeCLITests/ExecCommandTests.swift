import Foundation
import Testing

/// `poolsize sweep --exec COMMAND`: a command per task.
@Suite(.serialized) struct ExecCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-exec-\(UUID())")
    static let quick = ["--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "100", "--quiet"]

    func sweep(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try EndToEndTests.run(
            ["sweep"] + arguments + [
                "--out", scratch.appendingPathComponent("run").path, "--plots",
                scratch.appendingPathComponent("plots").path,
            ], environment: ["PATH": "/usr/bin:/bin"], directory: scratch)
    }

    /// A command that sleeps 20 ms: W dominates, and its C (the child's CPU) is counted.
    @Test func aCommandIsSwept() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "sleep 0.02"] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("workload exec-sleep: command: sleep 0.02\n"))
        let rows = try String(contentsOf: scratch.appendingPathComponent("run/trials.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let cells = rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let errors = header.firstIndex(of: "errors")!, cpu = header.firstIndex(of: "cpu_us_per_task")!,
            wait = header.firstIndex(of: "wait_us_per_task")!
        #expect(cells.count == 2)
        #expect(cells.allSatisfy { $0[errors] == "0" })
        #expect(
            cells.allSatisfy { Double($0[cpu])! > 0 && Double($0[wait])! > 15_000 },
            "C is the child's CPU, W at least the 20 ms sleep less its CPU")
    }

    /// A password in the task's command (a URL's, an environment variable's, a libpq
    /// `password=`) and in its baseline is in no file of the run and no line printed; a failing
    /// task's message shows the command masked too.
    @Test func aPasswordInTheCommandIsWrittenNowhere() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let command = "sh -c 'exit 0' postgresql://postgres:Pw0rdX@127.0.0.1/x PGPASSWORD=Pw0rdY 'password=Pw0rdZ'"
        let result = try sweep(
            ["--exec", command, "--exec-baseline", "sh -c 'exit 0' postgresql://u:Pw0rdB@h/x"] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("Pw0rd"))
        #expect(
            result.stdout.hasPrefix(
                "workload exec-sh: command: sh -c 'exit 0' postgresql://REDACTED@127.0.0.1/x PGPASSWORD=REDACTED 'password=REDACTED'\n"
            ), "\(result.stdout)")
        let run = scratch.appendingPathComponent("run")
        let files = try FileManager.default.contentsOfDirectory(atPath: run.path)
        #expect(files.contains("machine.json") && files.contains("lowload.json"))
        for file in files {
            let text = (try? String(contentsOf: run.appendingPathComponent(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("Pw0rd"), "\(file) holds a password")
        }
        try FileManager.default.removeItem(at: run)
        let failing = try sweep(["--exec", "sh -c 'exit 3' postgresql://u:Pw0rdF@h/x"] + Self.quick)
        #expect(failing.code == 5)
        #expect(failing.stderr.contains("sh -c 'exit 3' postgresql://REDACTED@h/x exited with status 3"))
        #expect(!failing.stderr.contains("Pw0rd"))
    }

    @Test func aFailingCommandStopsTheSweepBeforeItStarts() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "sh -c 'echo disk full >&2; exit 3'"] + Self.quick)
        #expect(result.code == 5)
        #expect(result.stderr.hasPrefix("error: measurement failed: the task failed "))
        #expect(
            result.stderr.hasSuffix(
                "times with one worker, before any pool size was tried: sh -c 'echo disk full >&2; exit 3' exited with status 3; its last stderr line: 'disk full'; fix it first\n"
            ))
    }

    /// A task longer than the low-load phase's trials: the phase ends on its wall-time bound
    /// (6 s) and says how long it waited, instead of running round after round of 2 s tasks.
    @Test func theLowLoadPhaseIsBoundedInWallTime() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "sh -c 'echo >> started; sleep 2'"] + Self.quick)
        // Each task left a line: 6 s of 2 s tasks is at most four, however slow the machine.
        let started = try String(contentsOf: scratch.appendingPathComponent("started"), encoding: .utf8)
        #expect((1...4).contains(started.split(separator: "\n", omittingEmptySubsequences: false).count - 1))
        #expect(result.code == 5)
        #expect(result.stderr.hasPrefix("error: measurement failed: no task finished in "), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                " with one worker; a task must finish well within a trial (--trial-ms, --task-timeout)\n"))
    }

    /// A task longer than the low-load phase's default window (0.5 s here) is measured once
    /// --trial-ms gives it room, as the message above advises; before, the phase ignored
    /// --trial-ms and no command of a second or more could be swept at all.
    @Test func aLongerTrialGivesASlowTaskRoomAtLowLoad() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let run = scratch.appendingPathComponent("run")
        let sweep = Process()
        sweep.executableURL = EndToEndTests.binary
        sweep.arguments = [
            "sweep", "--exec", "sleep 0.6", "--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "1300",
            "--quiet",
            "--out", run.path, "--plots", scratch.appendingPathComponent("plots").path,
        ]
        sweep.environment = ["PATH": "/usr/bin:/bin"]
        let err = Pipe()
        sweep.standardError = err
        sweep.standardOutput = FileHandle.nullDevice
        try sweep.run()
        // The trials of 0.6 s tasks run for seconds each; the low-load phase is what is tested.
        let lowLoadFile = run.appendingPathComponent("lowload.json")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, sweep.isRunning, !FileManager.default.fileExists(atPath: lowLoadFile.path) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if sweep.isRunning { kill(sweep.processIdentifier, SIGINT) }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sweep.awaitExit()
        #expect(!stderr.contains("no task finished"), "\(stderr)")
        let lowLoad = try JSONSerialization.jsonObject(with: Data(contentsOf: lowLoadFile)) as? [String: Any]
        let tasks = try #require(lowLoad?["tasks"] as? Int)
        #expect(tasks >= 4, "two 0.6 s tasks in each 1.3 s window, for about 6 s")
        let wait = try #require(lowLoad?["wait_microseconds_per_task"] as? Double)
        #expect(wait > 550_000, "W is the 0.6 s sleep less the command's CPU: \(wait)")
    }

    /// The low-load phase shows itself on a terminal (issue 24, case 10: a task that never
    /// ended left the terminal silent until its --task-timeout). stderr is a pseudo-terminal
    /// here; the line appears while the first task (1.5 s) still runs, before lowload.json.
    @Test func theLowLoadPhaseShowsProgressOnATerminal() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let sweep = Process()
        sweep.executableURL = EndToEndTests.binary
        sweep.arguments = [
            "sweep", "--exec", "sleep 1.5", "--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "100",
            "--out", scratch.appendingPathComponent("run").path, "--plots",
            scratch.appendingPathComponent("plots").path,
        ]
        sweep.environment = ["PATH": "/usr/bin:/bin"]
        sweep.standardOutput = FileHandle.nullDevice
        sweep.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        try sweep.run()
        close(slave)
        var shown = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !shown.contains("and the task in progress") {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            shown += String(decoding: buffer[..<count], as: UTF8.self)
        }
        let lowLoadWritten = FileManager.default.fileExists(
            atPath: scratch.appendingPathComponent("run/lowload.json").path)
        kill(sweep.processIdentifier, SIGINT)
        let sweepExit = sweep.awaitExit()
        #expect(
            shown.contains("\r\u{1B}[Kmeasuring W/C at low load: one worker, up to 6 s and the task in progress"),
            "\(shown)")
        #expect(!lowLoadWritten, "shown while the phase runs, not after it")
        #expect(sweepExit.code == 130)
    }

    @Test func aDirectoryIsNoProgram() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "/tmp --flag"] + Self.quick)
        #expect(result.code == 66)
        #expect(
            result.stderr
                == "error: /tmp: not found; a directory, not a program; --exec runs a program on PATH or at a path (write sh -c '…' for shell syntax)\n"
        )
    }

    @Test func execOutputWithoutExecIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--workload", "cpu", "--exec-output", scratch.path] + Self.quick)
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --exec-output: keeps the output of --exec commands; add --exec COMMAND or drop --exec-output\n"
        )
    }

    @Test func execBaselineWithoutExecIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--workload", "cpu", "--exec-baseline", "true"] + Self.quick)
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --exec-baseline: measures the start of the --exec command's program; add --exec COMMAND or drop --exec-baseline\n"
        )
    }

    /// A baseline that fails is refused before the sweep, not found unmeasured after it.
    @Test func aFailingBaselineIsRefusedBeforeTheSweep() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "true", "--exec-baseline", "sh -c 'exit 3'"] + Self.quick)
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --exec-baseline: sh -c 'exit 3' exited with status 3; it wrote nothing on stderr; give the same command with its work left out, one that exits with status 0\n"
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("run/trials.csv").path))
        let missing = try sweep(["--exec", "true", "--exec-baseline", "no-such-client -c 'SELECT 1'"] + Self.quick)
        #expect(missing.code == 66)
        #expect(
            missing.stderr
                == "error: no-such-client: not found; no such program on PATH, or not one that runs; --exec-baseline runs a program on PATH or at a path\n"
        )
    }

    /// A command that is nothing but its start, with itself as the baseline: the start is all
    /// of C (about 100%, whatever the machine's speed), and the report and console say so,
    /// naming the baseline; lowload.json keeps it.
    @Test func aBaselineThatIsTheWholeTaskIsFound() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "sh -c :", "--exec-baseline", "sh -c :"] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        let report = try String(contentsOf: scratch.appendingPathComponent("run/report.md"), encoding: .utf8)
        #expect(report.contains("**Each task is mostly its process starting**"), "\(report)")
        #expect(
            report.contains("and the baseline sh -c :, the program started with nothing to do, costs"), "\(report)")
        #expect(result.stdout.contains("warning: Each task is mostly its process starting"), "\(result.stdout)")
        let lowLoad = try String(contentsOf: scratch.appendingPathComponent("run/lowload.json"), encoding: .utf8)
        #expect(lowLoad.contains("\"baseline\" : \"sh -c :\""), "\(lowLoad)")
    }

    @Test func aMissingCommandIsExit66BeforeAnythingRuns() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--exec", "no-such-program --flag"] + Self.quick)
        #expect(result.code == 66)
        #expect(
            result.stderr
                == "error: no-such-program: not found; no such program on PATH; --exec runs a program on PATH or at a path (write sh -c '…' for shell syntax)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("run").path))
    }

    /// A task past --task-timeout is stopped, counted as failed, and leaves no process behind.
    @Test func aHangingCommandIsStoppedAndLeavesNoChild() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        let result = try sweep(["--exec", "sleep \(marker)", "--task-timeout", "50ms"] + Self.quick)
        #expect(result.code == 5)
        #expect(
            result.stderr.contains("sleep \(marker) ran past --task-timeout 50 ms and was stopped"), "\(result.stderr)")
        let survivors = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }.filter {
            pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains(marker)
        }
        #expect(survivors.isEmpty, "left behind: \(survivors)")
    }
}

@Suite(.serialized) struct FileIOCommandTests {
    /// The file-io workload does real IO in --scratch and leaves nothing there.
    @Test func fileIOSweepsAndCleansUp() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-fio-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = scratch.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let result = try EndToEndTests.run(
            [
                "sweep", "--workload", "file-io", "--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms",
                "100", "--quiet",
                "--scratch", files.path, "--out", scratch.appendingPathComponent("run").path, "--plots",
                scratch.appendingPathComponent("plots").path,
            ],
            environment: ["PATH": "/nonexistent"], directory: scratch)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).isEmpty)
        let rows = try String(contentsOf: scratch.appendingPathComponent("run/trials.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let errors = header.firstIndex(of: "errors")!
        #expect(
            rows.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false)[errors] == "0" })
    }
}
