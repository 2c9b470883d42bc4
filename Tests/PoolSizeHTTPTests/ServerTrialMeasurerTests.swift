import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

@testable import PoolSizeHTTP

/// `ServerTrialMeasurer` against servers it starts as processes: `poolsize serve`, and the
/// python3 stand-ins of `ScriptedServer` (failing answers, a crash, a daemon, one that ignores
/// SIGTERM), plus one that never answers and a port another process holds. The assertions are
/// about outcomes (figures present or absent, counts, exact reasons, which processes are
/// left), never about how fast anything ran; each test kills what its servers left, also when
/// it fails, and expects that there was nothing to kill.
@Suite(.serialized) struct ServerTrialMeasurerTests {
    /// A measurer of `command` at `url`; `makeTarget` plain GETs.
    static func measurer(
        _ command: String, url: String = "http://127.0.0.1:{port}/", connections: Int = 4, ready: Double = 30,
        grace: Double = 5
    ) throws -> ServerTrialMeasurer {
        let command = try ServerCommand(command)
        return ServerTrialMeasurer(
            command: command, url: try ServerURL(url, server: command), connections: connections,
            readyTimeoutSeconds: ready, graceSeconds: grace
        ) { url throws(PoolSizeError) in try HTTPTarget(url: url) }
    }

    /// A closed-loop trial of `size` lasting `milliseconds`, a quarter of it warm-up.
    static func trial(size: Int, milliseconds: UInt64 = 400) -> TrialRequest {
        TrialRequest(
            combination: Combination(pool: .server, qos: .default, primitive: .none), size: size,
            loop: .closed(TrialSettings(durationNanoseconds: milliseconds * 1_000_000, warmupFraction: 0.25)),
            seed: 1)
    }

    /// The built `poolsize`, beside the test bundle.
    static var poolsize: String {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("poolsize").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "poolsize"
            ).path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// The error `body` throws, as its line; "" when it throws none.
    static func failure(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        return ""
    }

    /// `poolsize serve` (its pid noted by the shell that execs it): the trial's figures are the
    /// server's, and the server is gone after it.
    @Test func aTrialOfPoolsizeServeMeasuresTheServersProcesses() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(
            "sh -c 'echo $$ >> \(scripted.pids); exec \(Self.poolsize) serve --threads {size} --port {port} --cpu 1ms --delay 1ms --quiet'"
        )
        defer { measurer.sweepEnded() }
        let metrics = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        #expect(metrics.throughputPerSecond > 0)
        #expect(metrics.tasks > 0 && metrics.errors == 0 && metrics.failureExamples.isEmpty)
        #expect(metrics.processThreads >= 2, "the server's threads were not read")
        #expect(metrics.maxRSSKilobytes > 0)
        #expect(metrics.cpuMicrosecondsPerTask > 0, "the server's CPU was not read")
        #expect(metrics.driverCPUMicrosecondsPerRequest > 0)
        #expect(metrics.invalidReason == nil)
        #expect(scripted.recordedPIDs.count == 1)
        #expect(scripted.leftovers.isEmpty)
    }

    /// A load tool that counted requests the started server never served (aimed at another
    /// server's fixed port; here a tool that only prints wrk's lines): the server used no CPU for
    /// them, so the trial is invalid, naming why, never 5000 requests/s of this server. A tool
    /// that loads the server through `{port}` is valid.
    @Test func aToolThatLoadedAnotherServerIsAnInvalidTrial() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let server =
            "sh -c 'echo $$ >> \(scripted.pids); exec \(Self.poolsize) serve --threads {size} --port {port} --cpu 1ms --quiet'"
        let command = try ServerCommand(server)
        let elsewhere = ServerTrialMeasurer(
            command: command, url: try ServerURL("http://127.0.0.1:{port}/", server: command), connections: 4,
            readyTimeoutSeconds: 30,
            loadTool: (
                try LoadCommand(
                    "sh -c 'sleep 0.3; echo \"  1500 requests in 0.30s, 1MB read\"; echo Requests/sec: 5000' {port}",
                    requiresSize: false),
                LoadToolParser(preset: .wrk), 30
            )
        ) { url throws(PoolSizeError) in try HTTPTarget(url: url) }
        let idle = try elsewhere.measure(Self.trial(size: 2), cores: 2, readRatio: 0).metrics
        elsewhere.sweepEnded()
        #expect(idle.throughputPerSecond == 5000)
        let reason = try #require(idle.invalidReason)
        #expect(reason.hasPrefix("the server poolsize started used "), "\(reason)")
        #expect(
            reason.hasSuffix(
                " of CPU while the load tool counted 1500 requests, so the tool loaded something else (another server, a fixed port) or the server's work ran outside its session (a daemon that called setsid); aim the tool at {port}, and keep the server in the foreground"
            ), "\(reason)")
        // 2 ms for 1500 requests (1.3 µs each) is a server's work; 0.45 ms (0.3 µs each) is what
        // an idle server spent in one such window on a busy machine, and is not.
        #expect(ServerTrialValidity.idleServer(cpuNanoseconds: 2_000_000, requests: 1500) == nil)
        #expect(ServerTrialValidity.idleServer(cpuNanoseconds: 445_000, requests: 1500) != nil)
        #expect(ServerTrialValidity.idleServer(cpuNanoseconds: 0, requests: 5) == nil)
        #expect(scripted.leftovers.isEmpty)
    }

    /// The low-load round's C is the CPU of the pool that serves the requests, not of every
    /// thread: `poolsize serve --workers` burns its 2 ms in its `pool-worker-N` threads, while
    /// its event loops (`NIO-ELT-…`) parse and answer. C is that pool's, below all its threads'
    /// CPU, and at least the 2 ms burnt; W is the rest of the latency, at least the 3 ms held.
    @Test func theLowLoadRoundTakesCFromTheServingPool() throws {
        let measurer = try Self.measurer(
            "\(Self.poolsize) serve --workers {size} --port {port} --cpu 2ms --delay 3ms --quiet", connections: 1)
        defer { measurer.sweepEnded() }
        var request = Self.trial(size: 1, milliseconds: 500)
        request.lowLoad = true
        let metrics = try measurer.measure(request, cores: 2, readRatio: 0.5).metrics
        #expect(metrics.servingPool == "pool-worker")
        let slices = metrics.perTaskCPUMicroseconds.count
        #expect(slices > 0 && metrics.processCPUMicroseconds.count == slices)
        let c = metrics.perTaskCPUMicroseconds.reduce(0, +) / Double(max(slices, 1))
        let whole = metrics.processCPUMicroseconds.reduce(0, +) / Double(max(slices, 1))
        #expect(c >= 1_900 && c < whole, "C \(c) µs, all threads \(whole) µs")
        let w = metrics.perTaskWaitMicroseconds.reduce(0, +) / Double(max(slices, 1))
        #expect(w >= 2_900, "W \(w) µs")
    }

    /// The pool that serves the requests is the one whose CPU per request is steadily the
    /// largest (the median over the slices), not the one with the largest total: a compiler
    /// thread's burst in two of five slices outweighs the pool in the mean but not the median.
    @Test func theServingPoolIsTheSteadilyBusiestNotTheBurstiest() {
        let slices: [[String: Double]] = [
            ["pool-thread": 2_000, "C2 CompilerThre": 9_000, "HTTP-Dispatcher": 100],
            ["pool-thread": 2_100, "HTTP-Dispatcher": 120],
            ["pool-thread": 1_900, "C2 CompilerThre": 8_000, "HTTP-Dispatcher": 90],
            ["pool-thread": 2_050, "HTTP-Dispatcher": 110],
            ["pool-thread": 1_950, "HTTP-Dispatcher": 100],
        ]
        let chosen = ServerThreadGroups.servingPool(slices)
        #expect(chosen?.name == "pool-thread")
        #expect(chosen?.cpuMicroseconds == [2_000, 2_100, 1_900, 2_050, 1_950])
        // One pool (a CPython server: every thread carries the program's name): no pool is
        // told apart, and C stays all of the server's CPU.
        #expect(ServerThreadGroups.servingPool([["gunicorn": 2_500], ["gunicorn": 2_400]]) == nil)
        #expect(ServerThreadGroups.servingPool([]) == nil)
    }

    /// A thread-per-connection server (python's ThreadingHTTPServer) is read before the
    /// driver closes its connections, whose threads end with them: one thread per connection
    /// besides the main one is seen, and the 2 ms of CPU each request burns is counted. (Read
    /// after the close, a server answering at once had one thread left and C of a few µs.)
    @Test(arguments: ["ok", "burn"]) func aThreadPerConnectionServerIsReadWhileConnected(mode: String) throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command(mode), connections: 4)
        let metrics = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        #expect(metrics.errors == 0 && metrics.tasks > 0)
        #expect(metrics.processThreads == 5)
        #expect(metrics.cpuMicrosecondsPerTask > 0)
        if mode == "burn" {
            // Requests in flight as the window opens and closes make C a little above or below.
            #expect(metrics.cpuMicrosecondsPerTask > 1_500, "C \(metrics.cpuMicrosecondsPerTask) µs")
        }
        #expect(scripted.leftovers.isEmpty)
    }

    /// Answers of 500 are failures, never requests nor throughput, and the trial is invalid by
    /// the share of its requests that failed.
    @Test func failingAnswersAreFailuresNeverThroughput() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command("fail"))
        let metrics = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        #expect(metrics.errors > 0)
        #expect(metrics.tasks == 0 && metrics.throughputPerSecond == 0)
        #expect(
            metrics.failureExamples == ["answered 500 Internal Server Error (\"ok\")"],
            "the body's first line, as the server said it")
        let plan = SweepPlan(
            runID: "r", spec: WorkloadSpec(name: "server-python3", cpuMicroseconds: 0, waitMicroseconds: 0),
            sizes: .explicit([2]), cores: 2)
        let record = TrialRecord(
            plan: plan, combination: Self.trial(size: 2).combination, poolSize: 2, repetition: 1, metrics: metrics,
            integrity: nil)
        #expect(
            TrialValidity.problem(record, cores: 2)
                == "\(metrics.errors) of \(metrics.errors) tasks failed (100.0%, more than the 1% a trial may lose)")
        #expect(scripted.leftovers.isEmpty)
    }

    /// A server that exits during a trial: the trial is invalid, naming how it ended and what it
    /// said last.
    @Test func aServerThatExitsDuringTheTrialMakesItInvalid() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command("crash"))
        let metrics = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        #expect(
            metrics.invalidReason
                == "the server exited during the trial (exited with status 3); its last lines on stderr: 'crashing on purpose'"
        )
        // The connections refused after it died are no answers of it: not counted as failures,
        // which would withhold the whole sweep's recommendation.
        #expect(metrics.errors == 0)
        #expect(scripted.leftovers.isEmpty)
    }

    /// A server that never answers ends the sweep at its first trial, naming `server`, the
    /// timeout and its last lines; nothing is left of it.
    @Test func aServerThatNeverAnswersFailsTheFirstTrial() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(
            "sh -c ': {port}; echo $$ >> \(scripted.pids); echo loading the model for {size} threads >&2; echo still loading >&2; exec sleep 300'",
            ready: 1)
        let message = Self.failure { _ = try measurer.measure(Self.trial(size: 1), cores: 2, readRatio: 0.5) }
        #expect(message.hasPrefix("error: `server`: was not ready within 1 s (last probe: no answer: "), "\(message)")
        #expect(
            message.hasSuffix("); its last lines on stderr: 'loading the model for 1 threads' | 'still loading'"),
            "\(message)")
        #expect(scripted.recordedPIDs.count == 1)
        #expect(scripted.leftovers.isEmpty)
    }

    /// Once a server has answered, one that does not at a later size is that trial's problem:
    /// the trial is invalid with the same reason (as a note, not an error line), and the sweep
    /// goes on.
    @Test func aLaterServerThatNeverAnswersIsAnInvalidTrial() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(
            "sh -c 'echo $$ >> \(scripted.pids); if [ {size} -gt 1 ]; then echo loading >&2; exec sleep 300; fi; exec python3 -u \(scripted.script) ok {size} {port} \(scripted.pids)'",
            ready: 3)
        let first = try measurer.measure(Self.trial(size: 1), cores: 2, readRatio: 0.5).metrics
        #expect(first.invalidReason == nil && first.throughputPerSecond > 0)
        let second = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        let reason = second.invalidReason ?? ""
        #expect(reason.hasPrefix("`server`: was not ready within 3 s (last probe: no answer: "), "\(reason)")
        #expect(reason.hasSuffix("); its last lines on stderr: 'loading'"), "\(reason)")
        #expect(second.throughputPerSecond == 0 && second.tasks == 0)
        // The size-1 server's shell and python are one process (exec); the size-2 one's shell too.
        #expect(scripted.recordedPIDs.count == 3)
        #expect(scripted.leftovers.isEmpty)
    }

    /// A fixed port (no {port}) that answers before the server starts belongs to another
    /// process: the error names the URL's setting and the fix, and no server is started.
    @Test func aFixedPortThatAlreadyAnswersNamesTheURL() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let holder = try RawHTTPServer()
        defer { holder.stop() }
        let url = "http://127.0.0.1:\(holder.port)/"
        let measurer = try Self.measurer(
            "python3 -u \(scripted.script) ok {size} \(holder.port) \(scripted.pids)", url: url)
        let message = Self.failure { _ = try measurer.measure(Self.trial(size: 1), cores: 2, readRatio: 0.5) }
        #expect(
            message
                == "error: `httpURL`: \(url) answers (HTTP 200 OK) before the server is started: another process holds the port; stop it, or let poolsize pick one with {port} in both `server` and the URL"
        )
        #expect(scripted.recordedPIDs.isEmpty)
    }

    /// A fixed port held by a listener that never answers: the server started on it cannot
    /// bind, exits, and the error shows why.
    @Test func aFixedPortHeldSilentlyShowsTheServersBindError() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let (listener, port) = try Self.silentListener()
        defer { close(listener) }
        let measurer = try Self.measurer(
            "python3 -u \(scripted.script) ok {size} \(port) \(scripted.pids)", url: "http://127.0.0.1:\(port)/")
        let message = Self.failure { _ = try measurer.measure(Self.trial(size: 1), cores: 2, readRatio: 0.5) }
        #expect(
            message.hasPrefix("error: `server`: exited with status 1 before it was ready; its last lines on stderr: "),
            "\(message)")
        #expect(message.hasSuffix("'OSError: [Errno 98] Address already in use'"), "\(message)")
        #expect(scripted.leftovers.isEmpty)
    }

    /// A server that ignores SIGTERM is killed after the grace; nothing of it is left.
    @Test func aServerIgnoringSIGTERMIsKilledAfterTheGrace() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command("ignore-term"), grace: 0.5)
        let metrics = try measurer.measure(Self.trial(size: 1), cores: 2, readRatio: 0.5).metrics
        #expect(metrics.throughputPerSecond > 0)
        #expect(scripted.recordedPIDs.count == 1)
        #expect(scripted.leftovers.isEmpty)
    }

    /// A server that daemonises (its first process exits 0 at once; the grandchild, in a group
    /// of its own, serves in the session) runs: it is measured through its session, and stopped
    /// through it.
    @Test func aDaemonisingServerIsMeasuredAndStoppedThroughItsSession() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command("daemon"))
        let metrics = try measurer.measure(Self.trial(size: 2), cores: 2, readRatio: 0.5).metrics
        #expect(metrics.invalidReason == nil)
        #expect(metrics.throughputPerSecond > 0 && metrics.errors == 0)
        #expect(metrics.processThreads >= 1 && metrics.cpuMicrosecondsPerTask > 0, "the daemon was not read")
        let pids = scripted.recordedPIDs
        #expect(pids.count == 2 && pids[0] != pids[1], "\(pids)")
        #expect(scripted.leftovers.isEmpty)
    }

    /// Fewer requests in flight than the server's threads: the driver was the limit, and the
    /// trial says so with the figure to pass.
    @Test func fewerConnectionsThanTheSizeMakeTheTrialInvalid() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(scripted.command("ok"), connections: 1)
        let metrics = try measurer.measure(Self.trial(size: 3), cores: 2, readRatio: 0.5).metrics
        #expect(
            metrics.invalidReason
                == "`connections` kept 1 request in flight, fewer than the server's 3 threads, so the driver, not the server, was the limit; pass at least 3"
        )
        #expect(scripted.leftovers.isEmpty)
    }

    /// A socket listening on a free port of 127.0.0.1 that never accepts.
    static func silentListener() throws -> (Int32, Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
