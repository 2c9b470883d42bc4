import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import Testing

/// The "clear messages" of issue 24's third round: each reproduces what a user saw and checks
/// the one line they see now.
@Suite(.serialized) struct ClearMessagesTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-clear-\(UUID())")
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/extremes/closed")
    static let quick = ["--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "100", "--quiet"]

    func make() throws -> URL {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    /// A command's stderr with ESC, BEL and bytes that are not UTF-8 reaches the terminal
    /// escaped, on one line; it was printed raw (recolouring the terminal), and stderr that is
    /// not UTF-8 was reported as "it wrote nothing on stderr". The command keeps its quotes, and
    /// its backslashes as typed, but for the one before `n`, doubled so it is not a newline's.
    @Test func aCommandsStderrIsEscapedForTheTerminal() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try EndToEndTests.run(
            [
                "sweep", "--exec", #"sh -c 'printf "\033[31mred\007 \377\n" >&2; exit 3'"#, "--out",
                dir.appendingPathComponent("run").path, "--plots", dir.appendingPathComponent("plots").path,
            ] + Self.quick, environment: ["PATH": "/usr/bin:/bin"], directory: dir)
        #expect(result.code == 5)
        #expect(
            result.stderr.hasSuffix(
                #"before any pool size was tried: sh -c 'printf "\033[31mred\007 \377\\n" >&2; exit 3' exited with status 3; its last stderr line: '\x1b[31mred\x07 "#
                    + "\u{FFFD}'; fix it first\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.dropLast().unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    /// Values read from a run directory or a CSV (a workload name, a CPU model) are escaped in
    /// the tables printed on the terminal: a line break in a cell broke the table, an ESC
    /// reached the terminal.
    @Test func runDirectoryValuesAreEscapedInTables() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("hostile.csv")
        try
            "workload,pool_size,throughput_per_s\n\"evil\u{1B}]0;pwned\u{07}\nname\",1,100\n\"evil\u{1B}]0;pwned\u{07}\nname\",2,190\n\"evil\u{1B}]0;pwned\u{07}\nname\",4,200\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let fit = try EndToEndTests.run(["fit", csv.path])
        #expect(fit.code == 0, "\(fit.stderr)")
        let row = try #require(fit.stdout.split(separator: "\n").dropFirst().first)
        #expect(row.hasPrefix(#"evil\x1b]0;pwned\x07\nname "#), "one row, the name escaped: \(row)")
        #expect(!fit.stdout.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control })

        let run = dir.appendingPathComponent("run")
        try FileManager.default.copyItem(at: Self.fixture, to: run)
        let machine = run.appendingPathComponent("machine.json")
        try String(contentsOf: machine, encoding: .utf8).replacingOccurrences(
            of: "\"AMD EPYC\"", with: #""AMD\u001b[2J\r\nEPYC""#
        ).write(to: machine, atomically: true, encoding: .utf8)
        let plan = try EndToEndTests.run(["plan", "--from", run.path, "--target-rate", "100/s"])
        #expect(plan.code == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains(#"(2 cores, AMD\x1b[2J\r\nEPYC)"#))
        #expect(!plan.stdout.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control })
    }

    /// `--wait -1ms`: ArgumentParser read the value as an option and said "Missing value for
    /// '--wait <duration>'"; the number now reaches the option's own check.
    @Test(arguments: [
        (
            ["plan", "--wait", "-1ms", "--cpu", "5ms", "--target-rate", "10/s", "--cores-per-host", "2"],
            "error: --wait: must not be negative, got -1 ms; write --wait 0ms for a task that never waits"
        ),
        (["sweep", "--cores", "-1", "--dry-run"], "error: --cores: must be 1 to 4096, got -1"),
        (
            ["compare", "--threshold", "-5%", "a", "b"],
            "error: --threshold: must be in [0, 100%), got -5%; write 5% or 0.05"
        ),
        (
            ["sweep", "--exec", "true", "--task-timeout", "-.5s", "--dry-run"],
            "error: --task-timeout: must be 1ms to 1h, got -.5s"
        ),
    ])
    func aNegativeValueIsCheckedNotMissing(arguments: [String], message: String) {
        #expect(runCLI(arguments) == (64, [message]))
    }

    /// A timeout under a millisecond printed as "ran past --task-timeout 0 s"; libcurl counts
    /// whole milliseconds and no command starts in less, so it is refused. With --http it was
    /// not checked at all by --dry-run (nan was accepted).
    @Test(arguments: [
        (
            ["sweep", "--exec", "true", "--task-timeout", "500us", "--dry-run"],
            "error: --task-timeout: must be 1ms to 1h, got 500us"
        ),
        (
            ["sweep", "--http", "http://127.0.0.1:8080/", "--task-timeout", "500us", "--dry-run"],
            "error: --task-timeout: must be 1ms to 1h, got 500us"
        ),
        (
            ["sweep", "--http", "http://127.0.0.1:8080/", "--task-timeout", "nans", "--dry-run"],
            "error: --task-timeout: 'nans' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"
        ),
    ])
    func subMillisecondTimeoutsAreRefused(arguments: [String], message: String) {
        #expect(runCLI(arguments) == (64, [message]))
    }

    /// A 243-character host name made a run id too long for a file name, and the default plots
    /// directory was blamed on --plots ("File name too long"). The workload part is cut.
    @Test func aLongHostNameMakesAUsableRunID() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let host = (0..<4).map { _ in String(repeating: "a", count: 60) }.joined(separator: ".") + ".com"
        #expect(host.count == 247)
        let plan = try SweepCommand.parse(["--http", "http://\(host)/"]).makePlan()
        #expect(plan.spec.name == "http-" + host.replacingOccurrences(of: ".", with: "-"))
        #expect(plan.runID.count == 16 + 64)
        #expect(plan.runID.hasSuffix("-http-" + String(repeating: "a", count: 59)))
        // Both default directories can be made from it.
        for parent in ["results", "plots"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(parent).appendingPathComponent(plan.runID),
                withIntermediateDirectories: true)
        }
    }

    /// A directory, a FIFO or /dev/stdin as --trace: a FIFO blocked the sweep (the trace is read
    /// twice), a directory was "not found".
    @Test func aTraceMustBeARegularFile() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("trace.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(
            runCLI(["sweep", "--trace", dir.path, "--dry-run"]) == (
                64,
                [
                    "error: --trace: \(dir.path) is a directory; give a regular file (the trace is read twice: to plan the sweep and to run it)"
                ]
            ))
        #expect(
            runCLI(["sweep", "--trace", fifo.path, "--dry-run"]) == (
                64,
                [
                    "error: --trace: \(fifo.path) is a pipe or FIFO; give a regular file (the trace is read twice: to plan the sweep and to run it)"
                ]
            ))
        let stdin = try EndToEndTests.run(["sweep", "--trace", "/dev/stdin", "--dry-run"])
        #expect(stdin.code == 64)
        #expect(stdin.stderr.hasPrefix("error: --trace: /dev/stdin is "), "\(stdin.stderr)")
        #expect(
            stdin.stderr.hasSuffix("; give a regular file (the trace is read twice: to plan the sweep and to run it)\n")
        )
    }

    /// `serve` on a port in use said "cannot write 127.0.0.1:PORT … choose a writable location
    /// (--out for the run directory, --plots for the charts)"; it names --port, or --host.
    @Test func servesBindFailureNamesTheAddressFlag() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try EndToEndTests.run(["serve", "--port", String(port), "--quiet"])
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --port: cannot listen on 127.0.0.1:\(port) (Address already in use); choose another port (0 picks a free one)\n"
        )
        let foreign = try EndToEndTests.run(["serve", "--host", "192.0.2.1", "--port", "0", "--quiet"])
        #expect(foreign.code == 64)
        #expect(
            foreign.stderr
                == "error: --host: cannot listen on 192.0.2.1:0 (Cannot assign requested address); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0\n"
        )
    }

    /// A torn last row of trials.csv (a sweep killed mid-write) was left out silently by export;
    /// it now says so in one line and exports the rest.
    @Test func exportSaysItLeftATornRowOut() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        try FileManager.default.copyItem(at: Self.fixture, to: run)
        let trials = run.appendingPathComponent("trials.csv")
        let text = try String(contentsOf: trials, encoding: .utf8)
        try String(text.dropLast(40)).write(to: trials, atomically: true, encoding: .utf8)
        let result = try EndToEndTests.run(["export", run.path, "--to", "openmetrics"])
        #expect(result.code == 0)
        #expect(
            result.stderr
                == "warning: \(trials.path): line 7 is cut short (the sweep stopped while writing it) and was left out\n"
        )
        #expect(result.stdout.hasSuffix("# EOF\n"))
    }

    /// --resume of a run whose workload differs only outside the short description printed the
    /// same description twice ("its workload was 'tiny' (…), this sweep's is 'tiny' (…)"); the
    /// two now differ where the specs do.
    @Test func aResumeRefusalShowsTheDifference() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        try FileManager.default.copyItem(at: Self.fixture, to: run)
        let spec = dir.appendingPathComponent("tiny.yaml")
        try "name: tiny\ndescription: \"another description\"\ncpu_us: 100\nwait_us: 900\ntrial_ms: 200\n".write(
            to: spec, atomically: true, encoding: .utf8)
        let result = try EndToEndTests.run(
            [
                "sweep", "--workload", spec.path, "--sizes", "1,2,4", "--repeat", "2", "--warmup", "0", "--trial-ms",
                "200", "--quiet", "--resume", run.path,
            ], environment: ["PATH": "/nonexistent"], directory: dir)
        #expect(result.code == 3)
        // Named by the field of the spec file that differs (a dump of both Swift values before
        // this, and two identical short descriptions before that).
        #expect(
            result.stderr
                == "error: --resume \(run.path): its workload's description was \"fixture: 0.1 ms of CPU, then a 0.9 ms wait\", this sweep's is \"another description\"; resume with the flags the run was started with (its machine.json records them)\n",
            "\(result.stderr)")
    }

    /// --resume of a server sweep with another --server command was refused by the workloads'
    /// descriptions ("its workload's description was \"server: … at GET …\""); it names both
    /// commands as recorded now. Nothing is started: the plans are compared first.
    @Test func aResumeWithAnotherServerCommandNamesBothCommands() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        try FileManager.default.copyItem(
            at: Self.fixture.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "run-server"), to: run)
        let result = try EndToEndTests.run(
            [
                "sweep", "--server", "poolsize serve --workers {size} --port {port} --cpu 1ms --delay 18ms --quiet",
                "--http", "http://127.0.0.1:{port}/", "--sizes", "4,8,16,20,24,32", "--repeat", "1", "--trial-ms",
                "1000", "--quiet", "--resume", run.path,
            ], directory: dir)
        #expect(result.code == 3)
        #expect(
            result.stderr
                == "error: --resume \(run.path): its --server command was 'poolsize serve --workers '{size}' --port '{port}' --cpu 2ms --delay 18ms --quiet', this sweep's is 'poolsize serve --workers '{size}' --port '{port}' --cpu 1ms --delay 18ms --quiet'; resume with the flags the run was started with (its machine.json records them)\n",
            "\(result.stderr)")
    }

    /// Ctrl-C before W/C is measured advised `--resume`, which then refused ("it stopped before
    /// W/C was measured"); the advice is now to start again, which is what --resume says too.
    @Test func anInterruptBeforeWCAdvisesStartingAgain() throws {
        let dir = try make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let flags =
            ["sweep", "--exec", "sleep 5", "--out", out.path, "--plots", dir.appendingPathComponent("plots").path]
            + Self.quick
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = flags
        process.environment = ["PATH": "/usr/bin:/bin"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // machine.json is written as the low-load phase starts; its first task takes 5 s, so no
        // lowload.json can be there yet when the signal arrives.
        let machine = out.appendingPathComponent("machine.json")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !FileManager.default.fileExists(atPath: machine.path) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let processExit = process.awaitExit()
        #expect(processExit.code == 130)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("lowload.json").path))
        #expect(
            stderr
                == "interrupted before W/C was measured at low load: no trial ran, so there is nothing to resume; run the sweep again (with --force to write \(out.path) again)\n"
        )
        // What --resume says of that directory agrees.
        let resumed = try EndToEndTests.run(
            flags.filter { $0 != "--out" && $0 != out.path } + ["--resume", out.path],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(resumed.code == 3)
        #expect(
            resumed.stderr.contains(
                "it stopped before W/C was measured (no lowload.json); start it again with --force"),
            "\(resumed.stderr)")
    }
}
