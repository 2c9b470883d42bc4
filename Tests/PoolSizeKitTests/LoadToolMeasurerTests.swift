import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

/// `load`'s runner against shell stand-ins for a load tool: the trial's size and port reach the
/// tool, its printed figures become the trial's, and a tool that fails gives an invalid trial
/// (one exact reason line) instead of an error. Each run is bounded by a watchdog far from what
/// it takes; no assertion is about speed. The real wrk run is in PoolSizeHTTPTests
/// (`LoadToolWrkTests`).
@Suite struct LoadToolMeasurerTests {
    static func measurer(
        _ line: String, parse: [String] = ["wrk"], timeout: Double = 20, port: Int? = nil
    ) throws(PoolSizeError) -> LoadToolMeasurer {
        try LoadToolMeasurer(
            command: LoadCommand(line, requiresSize: false), parser: LoadToolParser(parse), timeoutSeconds: timeout,
            port: port)
    }

    static func request(size: Int) -> TrialRequest {
        TrialRequest(
            combination: Combination(pool: .queuePool, qos: .default, primitive: .none), size: size,
            loop: .closed(TrialSettings(durationNanoseconds: 1_000_000_000)), seed: 1)
    }

    /// `{size}` and `{port}` are filled in inside their words, and what the tool printed about
    /// that run is the trial: its throughput, its errors, and its own window (`in 2.50s`)
    /// rather than its wall time; latencies it printed, and the figures a pool in this process
    /// would have are 0.
    @Test func theSizeAndPortReachTheToolAndItsFiguresAreTheTrial() throws {
        let measurer = try Self.measurer(
            "sh -c 'echo \"  {size}0 requests in 2.50s\"; echo Requests/sec: {size}.5; "
                + "echo \"  Non-2xx or 3xx responses: {port}\"; echo \"     99%   1.{size}ms\"'",
            port: 4242)
        let run = measurer.run(size: 7)
        #expect(
            run.arguments == [
                "sh", "-c",
                "echo \"  70 requests in 2.50s\"; echo Requests/sec: 7.5; echo \"  Non-2xx or 3xx responses: 4242\"; echo \"     99%   1.7ms\"",
            ])
        #expect(run.outcome == .exited(code: 0))
        #expect(run.invalidReason == nil)
        #expect(
            run.figures
                == LoadToolFigures(
                    throughputPerSecond: 7.5, latency: LatencyPercentiles(p99: 1_700), errors: 4242, requests: 70,
                    durationSeconds: 2.5))
        let (metrics, integrity) = measurer.measure(Self.request(size: 7), cores: 2, readRatio: 0)
        #expect(integrity == nil)
        #expect(metrics.throughputPerSecond == 7.5)
        #expect(metrics.wallSeconds == 2.5)
        #expect(metrics.tasks == 7.5 * 2.5)
        #expect(metrics.errors == 4242)
        #expect(metrics.latency == LatencyPercentiles(p99: 1_700))
        #expect(metrics.invalidReason == nil)
        #expect(metrics.cpuMicrosecondsPerTask == 0 && metrics.utilization == 0 && metrics.threads == 0)
        #expect(metrics.perTaskWaitCPURatios.isEmpty && metrics.perTaskCPUMicroseconds.isEmpty)
    }

    /// Without a window of its own, the trial's is the tool's wall time.
    @Test func withoutItsOwnWindowTheToolsWallTimeIsTheWindow() throws {
        let run = try Self.measurer("sh -c 'sleep 0.2; echo Requests/sec: {size}'").run(size: 3)
        #expect(run.figures?.durationSeconds == nil)
        #expect(run.wallSeconds >= 0.2)
        #expect(run.metrics.wallSeconds == run.wallSeconds)
        #expect(run.metrics.throughputPerSecond == 3)
    }

    /// A tool that exits 3 makes the trial invalid, the reason naming the status and its last
    /// lines on stderr (what it said on stdout is not shown when stderr has lines).
    @Test func aToolThatExitsNonZeroMakesTheTrialInvalid() throws {
        let measurer = try Self.measurer(
            "sh -c 'echo Requests/sec: 10; echo starting >&2; echo \"connect: refused\" >&2; exit 3'")
        let (metrics, _) = measurer.measure(Self.request(size: 2), cores: 2, readRatio: 0)
        #expect(
            metrics.invalidReason
                == "sh: exited with status 3; its last lines on stderr: 'starting' | 'connect: refused'")
        // Whatever it printed is kept beside the reason.
        #expect(metrics.throughputPerSecond == 10)
    }

    /// A tool that prints nothing, or no throughput, makes the trial invalid: "printed no
    /// throughput", with what it printed on stdout.
    @Test(arguments: [
        ("sh -c 'true'", "sh: printed no throughput; it printed nothing"),
        (
            "sh -c 'echo one; echo; echo \"  two  \"; echo three; echo four; echo warn >&2'",
            "sh: printed no throughput; its last lines on stdout: 'two' | 'three' | 'four'"
        ),
        ("sh -c 'echo warn >&2'", "sh: printed no throughput; its last lines on stderr: 'warn'"),
        (
            "sh -c 'echo Requests/sec: many'",
            "sh: printed 'many' as its throughput, which is not a rate (1234.5, 1234.5/s, 74070/min); its last lines on stdout: 'Requests/sec: many'"
        ),
    ])
    func aToolThatPrintsNoThroughputMakesTheTrialInvalid(line: String, reason: String) throws {
        let run = try Self.measurer(line, parse: ["^Requests/sec: (?<throughput>\\S+)"]).run(size: 1)
        #expect(run.outcome == .exited(code: 0))
        #expect(run.figures == nil)
        #expect(run.invalidReason == reason)
        #expect(run.metrics.invalidReason == reason)
        #expect(run.metrics.throughputPerSecond == 0 && run.metrics.tasks == 0)
    }

    /// The tool's lines are escaped in the reason (which stays one line; a backslash that cannot
    /// pass for an escape kept as printed) and cut when long.
    @Test func theToolsLinesAreEscapedAndCut() throws {
        let long = String(repeating: "x", count: 250)
        let run = try Self.measurer("sh -c 'printf \"a\\033[31mred\\\\path\\n\" >&2; echo \(long) >&2; exit 1'")
            .run(size: 1)
        #expect(
            run.invalidReason
                == "sh: exited with status 1; its last lines on stderr: 'a\\x1b[31mred\\path' | '\(String(repeating: "x", count: 200))…'"
        )
    }

    /// A tool still running at the timeout is stopped with its group and the trial is invalid;
    /// what it printed is read.
    @Test func aToolPastTheTimeoutIsStopped() throws {
        let run = try Self.measurer("sh -c 'echo Requests/sec: 5; exec sleep 30'", timeout: 0.3).run(size: 1)
        #expect(run.outcome == .timedOut(afterSeconds: 0.3))
        #expect(run.wallSeconds < 20, "the watchdog, not the tool's 30 s, ended it")
        #expect(
            run.invalidReason
                == "sh: no exit within 0.3 s; killed by the watchdog; its last lines on stdout: 'Requests/sec: 5'")
        #expect(run.figures?.throughputPerSecond == 5)
    }

    /// The tool's own CPU time is measured (its rusage) and kept in the run, not in the trial's
    /// CPU figures, which are the pool's. A tool that waits (here for a second's sleep, as a
    /// load tool waits for the server's answers) is not the limit.
    @Test func theToolsOwnCPUIsMeasured() throws {
        let run = try Self.measurer(
            "sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; sleep 1; echo Requests/sec: 1'"
        ).run(size: 1)
        #expect(run.invalidReason == nil)
        #expect((run.busiestThreadShare ?? 1) < 0.5, "\(String(describing: run.busiestThreadShare))")
        #expect(run.toolCPUSeconds > 0)
        #expect(run.toolCPUSeconds <= run.wallSeconds * Double(ProcessInfo.processInfo.activeProcessorCount) + 0.05)
        #expect(run.metrics.cpuMicrosecondsPerTask == 0 && run.metrics.utilization == 0)
    }

    /// A tool whose thread never waits (a shell loop that spins for a second in a process the
    /// tool started, standing for an event loop that is the limit) is load-generator-bound: its
    /// trial is invalid, never a knee. Busy counts time on a CPU and waiting for one, so a
    /// machine whose cores other work holds still sees it.
    @Test func aToolThatNeverWaitsIsLoadGeneratorBound() throws {
        let run = try Self.measurer(
            "sh -c 'timeout 1 sh -c \"while :; do :; done\"; echo Requests/sec: 1'"
        ).run(size: 1)
        #expect(
            (run.busiestThreadShare ?? 0) > LoadToolRun.busyThreadLimit, "\(String(describing: run.busiestThreadShare))"
        )
        let reason = try #require(run.invalidReason)
        #expect(
            reason.hasPrefix("sh: load-generator-bound: its busiest thread was busy (on a CPU or waiting for one) "),
            "\(reason)")
        #expect(
            reason.hasSuffix(
                " of the run, never waiting for the server, so the tool, not the server, may have been the limit; give it more threads (wrk -t, pgbench -j), cores, or another host"
            ), "\(reason)")
        #expect(run.metrics.invalidReason == reason)
    }

    /// A tool that says it was the limit (Locust's master, whose worker passed 90% of a core, as
    /// recorded in Tests/Fixtures/loadtool) gives an invalid trial with its words, though its
    /// own thread here, `cat`, waited.
    @Test func aToolThatSaysItWasTheLimitIsLoadGeneratorBound() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/loadtool/locust-worker-cpu.txt").path
        let run = try Self.measurer("cat '\(fixture)'", parse: ["locust"]).run(size: 1)
        #expect(run.figures?.throughputPerSecond == 10_920.66)
        #expect(
            run.invalidReason
                == "cat: load-generator-bound: the tool said so ('Worker vm_12f5d526f48e45d2aec91d706df9ce50 (index 0) exceeded cpu threshold (will only log this once per worker)'), so the tool, not the server, may have been the limit; give it more workers, cores, or another host"
        )
        #expect(run.metrics.invalidReason == run.invalidReason)
    }

    /// A program that is not there, and a `{port}` no server fills, are refused before any trial.
    @Test(arguments: [
        (
            "poolsize-no-such-load-tool -c {size}", 1 as Int?,
            "error: `load`: cannot start 'poolsize-no-such-load-tool': no such program on PATH"
        ),
        ("/nonexistent/wrk -c {size}", 1, "error: `load`: cannot start '/nonexistent/wrk': not an executable file"),
        (
            "wrk -c {size} http://127.0.0.1:{port}/", nil,
            "error: `load`: has {port}, but poolsize starts no server on a port it picks; write the port the server listens on, or give `server` with {port} too"
        ),
    ])
    func unusableMeasurerIsOneLine(line: String, port: Int?, message: String) {
        #expect(throws: PoolSizeError.self) { try Self.measurer(line, port: port) }
        do {
            _ = try Self.measurer(line, port: port)
        } catch {
            #expect(error.description == message)
        }
    }
}
