import Foundation
@testable import PoolSizeCLI
import Synchronization
import Testing

/// A `poolsize serve` process on 127.0.0.1, stopped by the test (and by itself after a minute).
final class ServeProcess {
    let process = Process()
    let output = Pipe()
    private(set) var url = ""
    /// The first line it printed: the URL and how it serves.
    private(set) var announcement = ""
    private var buffer = ""

    init(_ arguments: [String]) throws {
        process.executableURL = EndToEndTests.binary
        process.arguments = ["serve", "--port", "0", "--duration", "60s"] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = readLine()
        announcement = first
        url = first.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init) ?? ""
    }

    /// The next line the server prints (bounded wait: the server prints at least once a second).
    func readLine() -> String {
        let deadline = Date().addingTimeInterval(60)
        while !buffer.contains("\n") && Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
        }
        guard let newline = buffer.firstIndex(of: "\n") else { return buffer }
        defer { buffer = String(buffer[buffer.index(after: newline)...]) }
        return String(buffer[..<newline])
    }

    /// SIGTERM, then its remaining output and exit status.
    func stop() -> (code: Int32, rest: String) {
        kill(process.processIdentifier, SIGTERM)
        let rest = buffer + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let processExit = process.awaitExit()
        return (processExit.code, rest)
    }

    /// User and system CPU the server has used; nil once it has exited.
    func cpuSeconds() -> Double? { Self.cpuSeconds(pid: process.processIdentifier) }

    /// User and system CPU of process `pid` from /proc/PID/stat, in clock ticks; nil once it has
    /// been reaped.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// TCP connections the server process holds open, besides its listening socket
    /// (/proc/PID/fd links to sockets).
    func socketCount() -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
        return fds.filter {
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\($0)"))
                ?? "").hasPrefix("socket:")
        }.count
    }
}

/// `poolsize serve` and `poolsize sweep --http`, end to end on 127.0.0.1.
@Suite(.serialized) struct HTTPCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-http-\(UUID())")
    static let quick = ["--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "200", "--quiet"]

    func sweep(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try EndToEndTests.run(
            ["sweep"] + arguments + [
                "--out", scratch.appendingPathComponent("run").path, "--plots",
                scratch.appendingPathComponent("plots").path,
            ], directory: scratch)
    }

    func rows() throws -> [[String: String]] {
        let lines = try String(contentsOf: scratch.appendingPathComponent("run/trials.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map {
            Dictionary(
                uniqueKeysWithValues: zip(
                    header, $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// URL userinfo and credential headers reach the server but no file, report or console line.
    @Test func credentialsAreSentButNeverWritten() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try ServeProcess(["--delay", "1ms"])
        defer { _ = server.stop() }
        let url = server.url.replacingOccurrences(of: "http://", with: "http://alice:pa55word@")
        let result = try sweep(
            [
                "--http", url, "--http-header", "Authorization: Bearer t0k3n", "--http-header", "X-Tenant: s3cr3t",
                "--http-secret-header", "x-tenant",
            ] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        let secrets = ["pa55word", "alice", "t0k3n", "s3cr3t"]
        var written = result.stdout + result.stderr
        for directory in ["run", "plots"] {
            let root = scratch.appendingPathComponent(directory)
            for case let file as String in FileManager.default.enumerator(atPath: root.path) ?? FileManager.default
                .enumerator(atPath: "/nonexistent")!
            {
                written += (try? String(contentsOfFile: root.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
            }
        }
        // What reads the run afterwards: the report again, both exports, compare.
        let run = scratch.appendingPathComponent("run").path
        for arguments in [
            ["report", run, "--plots", scratch.appendingPathComponent("plots").path],
            ["export", run, "--to", "github-benchmark"],
            ["export", run, "--to", "openmetrics"], ["compare", run, run, "--format", "json"],
        ] {
            let other = try EndToEndTests.run(arguments, environment: ["PATH": "/nonexistent"])
            #expect(other.code == 0, "\(arguments[0]): \(other.stderr)")
            written += other.stdout + other.stderr
        }
        // Error lines that quote the URL or the header: a port out of range, a flag for https
        // only, a header without its colon, a server that refuses the connection.
        for (arguments, code) in [
            (
                ["--http", url.replacingOccurrences(of: #":[0-9]+/$"#, with: ":99999/", options: .regularExpression)],
                Int32(64)
            ),
            (["--http", url, "--http-insecure"], 64),
            (["--http", url, "--http-header", "Authorization Bearer t0k3n"], 64),
            (["--http", "http://alice:pa55word@127.0.0.1:9/", "--http-header", "Cookie: s3cr3t"], 5),
        ] {
            let failed = try sweep(arguments + ["--force"] + Self.quick)
            #expect(failed.code == code, "\(failed.stderr)")
            #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
            written += failed.stdout + failed.stderr
        }
        // The failed sweep's own files (the last one ran, and wrote its run directory).
        for case let file as String in FileManager.default.enumerator(atPath: run) ?? FileManager.default.enumerator(
            atPath: "/nonexistent")!
        {
            written += (try? String(contentsOfFile: run + "/" + file, encoding: .utf8)) ?? ""
        }
        #expect(written.contains("REDACTED"))
        for secret in secrets { #expect(!written.contains(secret), "\(secret) was written") }
    }

    /// Issue 31, finding 13: a key in the URL's query string (a known name, and one named with
    /// --http-secret-query) reached machine.json, summary.txt, the reports and the console. It
    /// is sent, and every file and line carries `REDACTED` in its place; other parameters stay.
    @Test func queryCredentialsAreSentButNeverWritten() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try ServeProcess(["--delay", "1ms"])
        defer { _ = server.stop() }
        let url = server.url + "v1?api_key=K3YK3Y&tenant=T3NANT&page=2"
        let result = try sweep(["--http", url, "--http-secret-query", "tenant"] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try rows().allSatisfy { $0["errors"] == "0" }, "the requests (with their query) were answered")
        var written = result.stdout + result.stderr
        for directory in ["run", "plots"] {
            let root = scratch.appendingPathComponent(directory)
            for case let file as String in FileManager.default.enumerator(atPath: root.path) ?? FileManager.default
                .enumerator(atPath: "/nonexistent")!
            {
                written += (try? String(contentsOfFile: root.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
            }
        }
        let machine = try String(contentsOf: scratch.appendingPathComponent("run/machine.json"), encoding: .utf8)
        #expect(machine.contains("v1?api_key=REDACTED&tenant=REDACTED&page=2"), "\(machine)")
        // An error that quotes the URL: a port out of range.
        let port = try sweep(
            [
                "--http", "http://127.0.0.1:99999/?api_key=K3YK3Y&tenant=T3NANT", "--http-secret-query", "tenant",
                "--force",
            ]
                + Self.quick)
        #expect(port.code == 64)
        #expect(
            port.stderr
                == "error: --http: port 99999 is not a TCP port (1 to 65535), in "
                + "'http://127.0.0.1:99999/?api_key=REDACTED&tenant=REDACTED'\n")
        written += port.stdout + port.stderr
        for secret in ["K3YK3Y", "T3NANT"] { #expect(!written.contains(secret), "\(secret) was written") }
    }

    /// Issue 24, case 10, with the libcurl client: a server that accepts connections and never
    /// answers. The low-load phase ends on its 6 s bound, each round waiting for its task's
    /// --task-timeout (rounds of 2 s tasks ran until 6 s of measured windows had passed, 24 s
    /// here; 780 s with the default 60 s timeout), and says what happened.
    @Test func aServerThatNeverAnswersEndsTheLowLoadPhaseOnItsBound() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // Listening but never accepting: the kernel completes the connection, nobody answers.
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/"
        let result = try sweep(["--http", url, "--task-timeout", "2s"] + Self.quick)
        // Each task was one connection, still waiting in the listener's queue: 6 s of 2 s
        // tasks is at most four, however slow the machine (the bug ran twelve).
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
        var connections = 0
        while case let connection = accept(listener, nil, nil), connection >= 0 {
            connections += 1
            close(connection)
        }
        #expect((1...4).contains(connections), "\(connections) connections")
        #expect(result.code == 5)
        #expect(result.stderr.hasPrefix("error: measurement failed: no task finished in "), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                " with one worker: GET \(url) ran past --task-timeout 2 s; a task must finish well within a trial (--trial-ms, --task-timeout)\n"
            ), "\(result.stderr)")
    }

    /// Three requests of 5 s CPU queued on one thread: after SIGTERM the server burns at most
    /// the 10 ms slice it is in, not the 14 s of CPU its queue still holds. Counted in the
    /// server's CPU time (/proc), not in seconds of wall time, so a slow machine changes nothing.
    @Test func serveStopsPromptlyWithCPUHeavyRequestsQueued() throws {
        let server = try ServeProcess(["--cpu", "5s", "--threads", "1"])
        let clients = try (0..<3).map { _ -> Process in
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-s", "-o", "/dev/null", "--max-time", "60", server.url]
            curl.standardOutput = FileHandle.nullDevice
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            return curl
        }
        defer { for client in clients where client.isRunning { client.terminate() } }
        // All three connected and the first request burning (a guard against a hang, not a bound).
        let deadline = Date().addingTimeInterval(60)
        while (server.socketCount() < 3 || (server.cpuSeconds() ?? 0) < 0.2) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(server.socketCount() >= 3)
        let before = try #require(server.cpuSeconds())
        let most = Mutex(before), pid = server.process.processIdentifier
        let watched = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while let cpu = ServeProcess.cpuSeconds(pid: pid) {
                most.withLock { $0 = max($0, cpu) }
                usleep(5_000)
            }
            watched.signal()
        }
        let result = server.stop()
        #expect(result.code == 0)
        watched.wait()
        let after = most.withLock { $0 }
        #expect(after - before < 1, "the server burnt \(after - before) s of CPU after SIGTERM")
    }

    @Test func serveAnnouncesItselfCountsAndStopsOnSIGTERM() throws {
        let server = try ServeProcess(["--delay", "1ms", "--threads", "1"])
        #expect(server.url.hasPrefix("http://127.0.0.1:"))
        let result = server.stop()
        #expect(result.code == 0)
        #expect(
            result.rest.contains("poolsize serve: stopped after 0 answered and 0 failed request(s) on 0 connection(s)"),
            "\(result.rest)")
    }

    /// With --workers: the first line says how it serves, every answer's header names the
    /// workers, and a SIGTERM stops it although a request holds the only worker for ten minutes.
    @Test func serveWithWorkersAnnouncesThemAndStopsWhileOneIsHeld() throws {
        let server = try ServeProcess(["--workers", "1", "--threads", "1", "--delay", "10min", "--cpu", "1ms"])
        let port = server.url.split(separator: ":").last!.dropLast()
        #expect(
            server.announcement
                == "poolsize serve: listening on http://127.0.0.1:\(port)/ with 1 worker thread(s), each held through its request's delay, fed by 1 event loop(s); per request 1.00 ms CPU, 600 s delay, jitter none; Ctrl-C stops it"
        )
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-D", "-", "-o", "/dev/null", "--max-time", "120", server.url]
        let headers = Pipe()
        curl.standardOutput = headers
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        defer { if curl.isRunning { curl.terminate() } }
        // The request holds the worker (the rate line says so once a second; 60 lines at most).
        var line = ""
        for _ in 0..<60 where !line.contains("1 of 1 worker(s) busy  0 waiting") { line = server.readLine() }
        #expect(line.contains("  0 failed/s  1 open connection(s)  1 of 1 worker(s) busy  0 waiting"), "\(line)")
        let result = server.stop()
        #expect(result.code == 0)
        #expect(
            result.rest.contains("poolsize serve: stopped after 1 answered and 0 failed request(s) on 1 connection(s)"),
            "\(result.rest)")
        let answer = String(decoding: headers.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            answer.contains("X-Poolsize-Server: threads=1 workers=1 cpu_us=1000 delay_us=600000000 jitter=none\r\n"),
            "\(answer)")
    }

    /// Against a server that waits 20 ms: W is the server's delay, every request succeeds,
    /// the files carry the server's behaviour, and no connection is left open afterwards.
    @Test func aSweepAgainstServeMeasuresTheDelay() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try ServeProcess(["--delay", "20ms", "--threads", "1"])
        defer { _ = server.stop() }
        let listening = server.socketCount()
        let result = try sweep(["--http", server.url] + Self.quick)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("workload http-127-0-0-1: HTTP: GET \(server.url)\n"))
        let rows = try rows()
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["errors"] == "0" })
        #expect(rows.allSatisfy { Double($0["wait_us_per_task"]!)! > 15_000 }, "W includes the server's 20 ms")
        let machine = try String(contentsOf: scratch.appendingPathComponent("run/machine.json"), encoding: .utf8)
        #expect(machine.contains("\"server\" : \"threads=1 cpu_us=0 delay_us=20000 jitter=none\""), "\(machine)")
        // The sweep's connections are closed: the server holds its listening socket only.
        let deadline = Date().addingTimeInterval(5)
        while server.socketCount() > listening && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(server.socketCount() == listening)
    }

    /// Ctrl-C in the middle of a trial: exit 130, and the server sees every connection closed.
    @Test func anInterruptedSweepLeavesNoConnection() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let server = try ServeProcess(["--delay", "5ms"])
        defer { _ = server.stop() }
        let listening = server.socketCount()
        let sweep = Process()
        sweep.executableURL = EndToEndTests.binary
        sweep.arguments = [
            "sweep", "--http", server.url, "--sizes", "4,8", "--repeat", "3", "--warmup", "0", "--trial-ms", "2000",
            "--quiet",
            "--out", scratch.appendingPathComponent("run").path, "--plots",
            scratch.appendingPathComponent("plots").path,
        ]
        sweep.standardOutput = FileHandle.nullDevice
        sweep.standardError = FileHandle.nullDevice
        try sweep.run()
        // Wait (bounded) until the sweep has connections open, then interrupt it.
        let deadline = Date().addingTimeInterval(20)
        while server.socketCount() <= listening && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.socketCount() > listening)
        kill(sweep.processIdentifier, SIGINT)
        let sweepExit = sweep.awaitExit()
        #expect(sweepExit.code == 130)
        let closed = Date().addingTimeInterval(5)
        while server.socketCount() > listening && Date() < closed { Thread.sleep(forTimeInterval: 0.05) }
        #expect(server.socketCount() == listening)
    }

    @Test func anErrorStatusStopsTheSweepBeforeItStarts() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try ServeProcess([])
        defer { _ = server.stop() }
        let result = try sweep(["--http", server.url + "status/503"] + Self.quick)
        #expect(result.code == 5)
        #expect(result.stderr.hasPrefix("error: measurement failed: the task failed "))
        #expect(
            result.stderr.hasSuffix(
                "times with one worker, before any pool size was tried: GET \(server.url)status/503 answered 503 Service Unavailable; fix it first\n"
            ), "\(result.stderr)")
    }

    @Test(arguments: [
        (
            ["--http", "localhost:8080"], Int32(64),
            "error: --http: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'localhost:8080'\n"
        ),
        // Every request of the sweep failed (exit 5) before the host was checked.
        (
            ["--http", "http://[zz]:80/"], 64,
            "error: --http: host '[zz]' in 'http://[zz]:80/' is not an IPv6 address (brackets hold one); give a host name or address, e.g. http://127.0.0.1:8080/ or http://[::1]:8080/\n"
        ),
        (
            ["--http", "http://127.0.0.1:9/", "--workload", "io"], 64,
            "error: --http: replaces --workload, --trace and --exec; give one of them\n"
        ),
        (
            ["--http", "http://127.0.0.1:9/", "--http-body", "/nonexistent/body.json"], 66,
            "error: /nonexistent/body.json: not found; --http-body takes a file whose bytes are sent as the request body\n"
        ),
        (
            ["--http", "http://127.0.0.1:9/", "--http-header", "Accept"], 64,
            "error: --http-header: must be 'Name: value', got 'Accept'\n"
        ),
        (
            ["--workload", "io", "--http-header", "Accept: */*"], 64,
            "error: --http-header: applies to --http requests; add --http URL or drop --http-header\n"
        ),
        (
            ["--workload", "io", "--task-timeout", "5s"], 64,
            "error: --task-timeout: applies to --exec, --http and --postgres tasks; add one of them or drop --task-timeout\n"
        ),
        (
            ["--workload", "io", "--http-insecure"], 64,
            "error: --http-insecure: applies to --http requests; add --http URL or drop --http-insecure\n"
        ),
        (
            ["--http", "http://127.0.0.1:9/", "--http-insecure"], 64,
            "error: --http-insecure: applies to https:// URLs, and --http is 'http://127.0.0.1:9/'; drop --http-insecure or use https://\n"
        ),
        (
            ["--http", "https://127.0.0.1:9/", "--http-cacert", "/nonexistent/ca.pem"], 66,
            "error: /nonexistent/ca.pem: not found; --http-cacert takes a PEM file of the CA certificates that issued the server's\n"
        ),
        (
            ["--http", "https://127.0.0.1:9/", "--http-cacert", "/nonexistent/ca.pem", "--http-insecure"], 64,
            "error: --http-insecure: skips the verification --http-cacert asks for; give one of them\n"
        ),
    ])
    func badHTTPFlagsAreOneLine(arguments: [String], code: Int32, message: String) throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(arguments + Self.quick)
        #expect(result.code == code)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("run").path))
    }

    @Test(arguments: [
        (["--port", "70000"], "error: --port: must be 0 to 65535, got 70000; 0 picks a free port\n"),
        (["--cpu", "5"], "error: --cpu: '5' has no unit; write it like 40ms, 500us (or 500µs), 1.5s or 2min\n"),
        (["--threads", "0"], "error: --threads: must be 1 to 1024, got 0\n"),
        (
            ["--workers", "1025"],
            "error: --workers: must be 1 to 1024, got 1025; leave it out to serve on the event loops\n"
        ),
        // Each was looked up as a name and blamed --port ("choose another port").
        (
            ["--host", "999.1.1.1", "--port", "0"],
            "error: --host: '999.1.1.1' is not an IPv4 address (four numbers, each 0 to 255); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0\n"
        ),
        (
            ["--host", "::zz", "--port", "0"],
            "error: --host: '::zz' is not an IPv6 address (brackets hold one); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0\n"
        ),
        (
            ["--host", "local host", "--port", "0"],
            "error: --host: 'local host' is not a host name: it holds ' ' (a name has letters, digits, '-' and '.'); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0\n"
        ),
        (["--delay=-1ms"], "error: --delay: must be 0 to 10min, got -1ms\n"),
    ])
    func badServeFlagsAreOneLine(arguments: [String], message: String) throws {
        let result = try EndToEndTests.run(["serve"] + arguments)
        #expect(result.code == 64)
        #expect(result.stderr == message)
    }

    /// An IPv6 address is taken with or without brackets, and bound without them.
    @Test func serveTakesAnIPv6AddressInBrackets() throws {
        #expect(try ServeCommand.parse(["--host", "[::1]"]).makeSettings().host == "::1")
        #expect(try ServeCommand.parse(["--host", "::1"]).makeSettings().host == "::1")
        #expect(try ServeCommand.parse(["--host", "0.0.0.0"]).makeSettings().host == "0.0.0.0")
    }

    /// A port in use: exit 64 naming --port and the address (it was "cannot write", exit 73,
    /// with advice about --out and --plots).
    @Test func aTakenPortIsNamed() throws {
        let server = try ServeProcess([])
        defer { _ = server.stop() }
        let port = server.url.split(separator: ":").last!.dropLast()
        let result = try EndToEndTests.run(["serve", "--port", String(port), "--duration", "1s"])
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --port: cannot listen on 127.0.0.1:\(port) (Address already in use); choose another port (0 picks a free one)\n",
            "\(result.stderr)")
    }
}

/// `--exec`: a SIGTERM to the sweep alone (not its process group, as a CI runner or `kill`
/// sends it) stops the commands it runs too.
@Suite(.serialized) struct ExecInterruptTests {
    @Test func aTerminatedSweepLeavesNoCommandRunning() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-exec-int-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        let sweep = Process()
        sweep.executableURL = EndToEndTests.binary
        sweep.arguments = [
            "sweep", "--exec", "sleep \(marker)", "--sizes", "2", "--repeat", "1", "--warmup", "0", "--quiet",
            "--out", scratch.appendingPathComponent("run").path, "--plots",
            scratch.appendingPathComponent("plots").path,
        ]
        sweep.standardOutput = FileHandle.nullDevice
        sweep.standardError = FileHandle.nullDevice
        try sweep.run()
        func survivors() -> [String] {
            // The commands (`sleep 7.x`), not the sweep whose own arguments name them.
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
                Int($0) != nil && Int32($0) != sweep.processIdentifier
            }.filter { pid in
                ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").hasPrefix(
                    "sleep\u{0}\(marker)")
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while survivors().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!survivors().isEmpty, "the command never started")
        let signalled = Date()
        kill(sweep.processIdentifier, SIGTERM)
        let sweepExit = sweep.awaitExit()
        // The commands sleep 30 s: stopped, not waited for.
        #expect(Date().timeIntervalSince(signalled) < 10)
        #expect(sweepExit.code == 130)
        #expect(survivors().isEmpty, "left behind: \(survivors())")
    }
}
