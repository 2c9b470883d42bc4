import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// Measures a trial of the pool inside a server (`sweep --server`): starts the server's command
/// with the trial's size, waits until the URL answers with a 2xx, loads it with `connections`
/// requests in flight from one event-driven thread (`HTTPLoadDriver`), reads the server's
/// process tree from /proc as the window opens and closes, and stops the server. The sweep's
/// one trial loop (`SweepRunner`) decides the order, repetitions and sizes, as for any pool.
///
/// The figures are the server's: throughput counts 2xx answers only, C is the CPU the server's
/// processes used per answered request, utilization their share of the cores; the driver's own
/// CPU per request is recorded beside them. The low-load phase (one request in flight, size 1)
/// gives the server's W/C: per slice of its window, C is the CPU per request of the server's
/// pool that serves the requests (`ServerThreadGroups`) and W the rest of the mean latency.
package final class ServerTrialMeasurer: TrialMeasuring, @unchecked Sendable {
    // @unchecked: the sweep calls `measure` from one thread, in turn.

    /// The command that starts the server.
    package let command: ServerCommand
    /// The URL loaded and probed.
    package let url: ServerURL
    /// Requests kept in flight during a trial.
    package let connections: Int
    /// How long a started server may take to answer with a 2xx.
    package let readyTimeoutSeconds: Double
    /// How long one request may take before it counts as failed.
    package let requestTimeoutSeconds: Double
    /// How long a stopped server has between SIGTERM and SIGKILL.
    package let graceSeconds: Double
    /// The user's own load tool (`load`, `parse`) run once per trial instead of the driver, with
    /// its timeout; nil: the event-driven driver loads the URL.
    package let loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)?
    /// The request for a URL (the method, headers and body of `--http`).
    private let makeTarget: @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    private let clocks = SystemClocks()
    /// The command that sets the running server's size instead of a restart (`resize`), and how
    /// long the server is given after it before it is measured; nil: restart at each size.
    package let resize: (command: ServerCommand, settleSeconds: Double)?
    /// The server kept between trials: the low-load phase's between its rounds, and with a
    /// resize command the one server of the whole sweep.
    private var held: RunningServer?
    /// Whether a server has answered in this sweep: until then a server that fails to start
    /// ends the sweep (nothing would work), after it a failure is that trial's.
    private var answeredOnce = false

    /// The low-load phase's slices: W and C are taken per slice of this length at least.
    static let sliceNanoseconds: UInt64 = 50_000_000
    /// Share of its core the driver may use before a trial says the driver was the limit.
    static let driverBusyLimit = 0.9

    /// A measurer of `command`'s server at `url`.
    package init(
        command: ServerCommand, url: ServerURL, connections: Int, readyTimeoutSeconds: Double,
        requestTimeoutSeconds: Double = 30, graceSeconds: Double = 5,
        resize: (command: ServerCommand, settleSeconds: Double)? = nil,
        loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)? = nil,
        makeTarget: @escaping @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    ) {
        self.resize = resize
        self.loadTool = loadTool
        self.command = command
        self.url = url
        self.connections = connections
        self.readyTimeoutSeconds = readyTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.graceSeconds = graceSeconds
        self.makeTarget = makeTarget
    }

    deinit { held?.process.stop(graceSeconds: graceSeconds) }

    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        if request.lowLoad, case let .closed(settings) = request.loop {
            return (try lowLoadRound(request, settings: settings, cores: cores), nil)
        }
        let server: RunningServer
        do {
            server = try acquire(size: request.size, keep: resize != nil)
        } catch {
            // A failing resize command is the user's to fix whatever happened before.
            guard answeredOnce, case .invalidParameter(let parameter, _) = error, parameter != .resize else {
                throw error
            }
            // The reason is a trial's note in trials.csv, not an error line of its own.
            let line = error.description
            let reason = line.hasPrefix("error: ") ? String(line.dropFirst("error: ".count)) : line
            return (Self.failedTrial(size: request.size, reason: reason), nil)
        }
        defer { if resize == nil { server.process.stop(graceSeconds: graceSeconds) } }
        guard case let .closed(settings) = request.loop else {
            return (try measureOpenLoop(request, server: server, cores: cores), nil)
        }
        if let loadTool {
            return (try measureWithTool(loadTool, size: request.size, server: server, cores: cores), nil)
        }
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        let driver = try HTTPLoadDriver(
            target: server.target, connections: connections, timeoutSeconds: requestTimeoutSeconds)
        var readings = ServerReadings(server: server)
        let result = try driver.run(
            warmupNanoseconds: warmup, durationNanoseconds: settings.durationNanoseconds - warmup
        ) { _ in readings.read() }
        readings.finish()
        var metrics = Self.metrics(
            result, size: request.size, server: readings.after.usage,
            cpuNanoseconds: readings.after.usage.cpuNanoseconds(since: readings.before.usage),
            switchesBefore: readings.before.usage, cores: cores)
        let connectionShortfall =
            connections < request.size
            ? "\(PoolSizeError.Parameter.connections.mention) kept \(connections) request\(connections == 1 ? "" : "s") in flight, fewer than the server's \(request.size) threads, so the driver, not the server, was the limit; pass at least \(request.size)"
            : nil
        finish(
            &metrics, result: result, readings: readings, server: server, cores: cores,
            connectionShortfall: connectionShortfall)
        return (metrics, nil)
    }

    /// The figures every driven trial adds once its load has run: the server's processes, how
    /// busy the rest of the machine was, and why the trial is not the pool's when it is not (the server exited, the
    /// driver's core was the limit, `connectionShortfall`).
    func finish(
        _ metrics: inout TrialMetrics, result: HTTPLoadResult, readings: ServerReadings, server: RunningServer,
        cores: Int, connectionShortfall: String?
    ) {
        let before = readings.before, after = readings.after
        metrics.watched = .server(
            Self.serverFigures(after.usage, since: before.usage, windowSeconds: result.windowSeconds))
        if let busy0 = before.busy, let busy1 = after.busy, busy1 >= busy0 {
            let serverCPU = Double(after.usage.cpuNanoseconds(since: before.usage))
            let own = Double(after.own >= before.own ? after.own - before.own : 0)
            let others: Double = Double(busy1 - busy0) - serverCPU - own
            let capacity: Double = result.windowSeconds * Double(max(cores, 1)) * 1e9
            metrics.otherLoad = capacity > 0 ? max(0, others / capacity) : 0
        }
        let ended = server.process.exitOutcome
        metrics.invalidReason = problem(
            result, process: server.process, ended: ended, connectionShortfall: connectionShortfall)
        if ended != nil {
            // Its failures are the driver's connections refused once it was gone, not answers:
            // counted, they would withhold the whole sweep's recommendation (as a task that
            // fails does) for one trial that is left out already, with why.
            metrics.errors = 0
        }
    }

    /// A trial loaded by the user's tool: its throughput, latency and errors as it printed them,
    /// the server's CPU, threads and memory over the tool's run.
    func measureWithTool(
        _ tool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double), size: Int,
        server: RunningServer, cores: Int
    ) throws(PoolSizeError) -> TrialMetrics {
        let measurer = try LoadToolMeasurer(
            command: tool.command, parser: tool.parser, timeoutSeconds: tool.timeoutSeconds, port: server.port)
        let members = ServerProcess.processes(inSession: server.process.pid)
        let before = SessionUsage.read(processes: members, switches: true)
        let run = measurer.run(size: size)
        let after = SessionUsage.read(
            processes: ServerProcess.processes(inSession: server.process.pid), switches: true)
        var metrics = run.metrics
        let figures = run.figures
        var requests = metrics.figures.throughputPerSecond * metrics.figures.wallSeconds
        if let counted = figures?.requests { requests = Double(counted) }
        let cpu = Double(after.cpuNanoseconds(since: before))
        let cpuPerRequest = requests > 0 ? cpu / 1_000 / requests : 0
        metrics.cpuMicrosecondsPerTask = cpuPerRequest
        if let mean = figures?.meanLatencyMicroseconds {
            metrics.waitMicrosecondsPerTask = max(0, mean - cpuPerRequest)
            metrics.waitCPURatio = cpuPerRequest > 0 ? metrics.figures.waitMicrosecondsPerTask / cpuPerRequest : .nan
        }
        metrics.utilization = cpu / 1e9 / (max(run.wallSeconds, 1e-9) * Double(max(cores, 1)))
        Self.record(after, since: before, into: &metrics)
        metrics.watched = .server(Self.serverFigures(after, since: before, windowSeconds: run.wallSeconds))
        if metrics.invalidReason == nil, let idle = Self.idleServer(cpuNanoseconds: cpu, requests: requests) {
            metrics.invalidReason = idle
        }
        if let ended = server.process.exitOutcome {
            metrics.invalidReason = exited(ended, process: server.process)
            // The tool's failures after the server died are not answers (as with the driver).
            metrics.errors = 0
        }
        return metrics
    }

    /// Less CPU than this per request the tool counted is no server's work: answering one costs
    /// microseconds (system calls to read and write it at least), while an idle server still
    /// spends some CPU of its own (timers, a collector), which a trial's few requests must not
    /// pass for their work.
    static let idleServerNanosecondsPerRequest = 1000.0

    /// Why a trial whose tool counted `requests` while the started server's processes used
    /// `cpuNanoseconds` is not that server's: the tool loaded another server, or the work ran
    /// outside the server's session. Nil when the server did the work, or too few requests
    /// were counted to tell.
    static func idleServer(cpuNanoseconds cpu: Double, requests: Double) -> String? {
        guard requests >= TrialValidity.minimumTasks, cpu < idleServerNanosecondsPerRequest * requests else {
            return nil
        }
        return
            "the server poolsize started used \(UnitFormat.duration(cpu / 1e9)) of CPU while the load tool counted \(UnitFormat.number(requests.rounded())) requests, so the tool loaded something else (another server, a fixed port) or the server's work ran outside its session (a daemon that called setsid); aim the tool at {port}, and keep the server in the foreground"
    }

    /// Stops the server kept between trials.
    package func sweepEnded() { stopHeld() }

    /// Why this trial's figures are the driver's or a dying server's rather than the pool's, or nil.
    /// `ended` is how the server ended, nil while it runs; `connectionShortfall` why the
    /// driver's connections were too few for the trial, nil when they were enough.
    func problem(_ result: HTTPLoadResult, process: ServerProcess, ended: ChildOutcome?, connectionShortfall: String?)
        -> String?
    {
        if let ended { return exited(ended, process: process) }
        if let connectionShortfall { return connectionShortfall }
        let busy = result.windowSeconds > 0 ? result.driverCPUMicroseconds / 1e6 / result.windowSeconds : 0
        if busy > Self.driverBusyLimit {
            return
                "the load driver used \(UnitFormat.percent(busy)) of its core, so it, not the server, may have been the limit (\(UnitFormat.number(result.driverCPUMicrosecondsPerRequest)) µs of its CPU per request)"
        }
        return nil
    }

    /// One round of the low-load phase: one request in flight to a server of `request.size`
    /// (kept for the phase's next round), W and C per slice of the window.
    func lowLoadRound(_ request: TrialRequest, settings: TrialSettings, cores: Int) throws(PoolSizeError)
        -> TrialMetrics
    {
        let fresh = held == nil || held?.process.hasExited == true
        let server = try acquire(size: request.size, keep: true)
        let driver = try HTTPLoadDriver(target: server.target, connections: 1, timeoutSeconds: requestTimeoutSeconds)
        var members: [Int32] = []
        let slices = max(1, min(40, settings.durationNanoseconds / Self.sliceNanoseconds))
        var last: (HTTPLoadDriver.Checkpoint, SessionUsage)? = nil
        var latencies: [Double] = [], cpus: [Double] = []
        var groups = ServerThreadGroups()
        // A fresh server's first requests load code and fill caches: not its steady W and C. A
        // short warm-up otherwise opens the connection first, so that a process the server
        // forks for it is in the session when its processes are listed, as the window opens.
        let result = try driver.run(
            warmupNanoseconds: fresh ? 300_000_000 : 20_000_000, durationNanoseconds: settings.durationNanoseconds,
            checkpointNanoseconds: settings.durationNanoseconds / slices
        ) { point in
            if last == nil { members = ServerProcess.processes(inSession: server.process.pid) }
            let usage = SessionUsage.read(processes: members, switches: false)
            // A slice that finished no request keeps its CPU for the next one that does.
            guard let (previous, previousUsage) = last else {
                last = (point, usage)
                return
            }
            guard point.requests > previous.requests else { return }
            last = (point, usage)
            let count = Double(point.requests - previous.requests)
            cpus.append(Double(usage.cpuNanoseconds(since: previousUsage)) / 1_000 / count)
            latencies.append(Double(point.latencySumNanoseconds - previous.latencySumNanoseconds) / 1_000 / count)
            groups.add(requests: Int(point.requests - previous.requests), before: previousUsage, after: usage)
        }
        if let ended = server.process.exitOutcome {
            held = nil
            server.process.stop(graceSeconds: graceSeconds)
            throw .measurementFailed(
                "the server exited while one request at a time was measured (\(ended.summary)); \(server.process.lastLines)"
            )
        }
        // The phase's failure share is of requests; its tasks are slices, so the failures are
        // judged here and not handed on as a count of slices.
        let finished = result.requests + result.failures
        if result.failures > 0, Double(result.failures) > TrialValidity.maximumFailureShare * Double(finished) {
            throw .measurementFailed(
                "\(result.failures) of \(finished) requests failed with one in flight to the server at size \(request.size), before any pool size was tried: \(result.firstFailure ?? "no reason recorded"); fix the server or the URL first"
            )
        }
        // Work that left the server's session (a daemon that calls setsid) shows none of its CPU:
        // a C of 0 is no measurement, it gives no formula, and every trial would be invalid.
        if result.requests > 0, !cpus.isEmpty, cpus.allSatisfy({ $0 == 0 }) {
            stopHeld()
            throw .measurementFailed(Self.cpuNotSeen(requests: result.requests))
        }
        var metrics = Self.metrics(
            result, size: request.size, server: SessionUsage(), cpuNanoseconds: 0, switchesBefore: SessionUsage(),
            cores: cores)
        metrics.errors = 0
        // C is the CPU of the pool that serves the requests, as the formula sizes that pool:
        // the server's other threads (an event loop, a compiler) are not held per request.
        if let pool = groups.servingPool, pool.cpuMicroseconds.count == cpus.count {
            metrics.servingPool = pool.name
            metrics.processCPUMicroseconds = cpus
            cpus = pool.cpuMicroseconds
        }
        let waits = zip(latencies, cpus).map { max(0, $0 - $1) }
        metrics.perTaskCPUMicroseconds = cpus
        metrics.perTaskWaitMicroseconds = waits
        metrics.perTaskWaitCPURatios = zip(waits, cpus).compactMap { $1 > 0 ? $0 / $1 : nil }
        if let reason = result.firstFailure { metrics.failureExamples = [reason] }
        return metrics
    }

    /// Why the sweep stops when the server's processes used no CPU while it answered.
    static func cpuNotSeen(requests: Int) -> String {
        "the server's CPU was not seen: it answered \(requests) requests with one in flight while the processes of "
            + "the session poolsize started it in used no CPU, so its work runs in processes that left that session "
            + "(a daemon that calls setsid or detaches, or a server another process starts); without C there is no "
            + "W/C, no formula and no trial the sweep could keep. Run the server in the foreground in "
            + "\(PoolSizeError.Parameter.server.mention) (no setsid, daemon mode or service manager)"
    }

    /// A server answering at `size`: with a resize command the one held server (started once),
    /// resized when its size differs; else a server started at `size`, kept when `keep` (the
    /// low-load phase's rounds), the held one reused when it runs at that size.
    func acquire(size: Int, keep: Bool) throws(PoolSizeError) -> RunningServer {
        if let current = held, current.process.hasExited { held = nil }
        if let resize {
            var server: RunningServer
            if let current = held { server = current } else { server = try start(size: size) }
            held = server
            if server.size != size {
                try run(resize.command, size: size, on: server)
                server.size = size
                held = server
                usleep(useconds_t(resize.settleSeconds * 1e6))
                try server.process.waitUntilReady(timeoutSeconds: readyTimeoutSeconds) {
                    (try? HTTPReadinessProbe(target: server.target).check()) ?? (false, "no probe")
                }
            }
            return server
        }
        if keep, let current = held, current.size == size { return current }
        stopHeld()
        let server = try start(size: size)
        if keep { held = server }
        return server
    }

    /// How long a resize command may run.
    static let resizeTimeoutSeconds = 60.0

    /// Runs the resize command for `size` against `server`; throws naming the setting when it
    /// fails, with how it ended and its last lines.
    func run(_ command: ServerCommand, size: Int, on server: RunningServer) throws(PoolSizeError) {
        let process = try ServerProcess(
            arguments: command.arguments(size: size, pid: server.process.pid, port: server.port))
        let deadline = Date().addingTimeInterval(Self.resizeTimeoutSeconds)
        while !process.hasExited && Date() < deadline { usleep(10_000) }
        let ended = process.stop(graceSeconds: 1)
        guard case .exited(code: 0) = ended else {
            let how =
                process.hasExited && Date() < deadline
                ? ended.summary : "did not finish within \(UnitFormat.duration(Self.resizeTimeoutSeconds))"
            throw .invalidParameter(
                .resize, message: "\(how) setting the size to \(size); \(process.lastLines); fix the command or drop it"
            )
        }
    }

    /// A server of `size` threads started and answering, on a free port when the command takes
    /// `{port}`. A server that exits before it answers because its port was taken meanwhile is
    /// started once more on another.
    func start(size: Int) throws(PoolSizeError) -> RunningServer {
        var attempt = 0
        while true {
            attempt += 1
            let port = command.usesPort ? try ServerProcess.freeLoopbackPort() : nil
            let target = try makeTarget(url.url(port: port))
            let probe = try HTTPReadinessProbe(target: target)
            if port == nil {
                let answer = probe.check()
                if answer.ready || answer.answer.hasPrefix("HTTP") {
                    throw .invalidParameter(
                        .httpURL,
                        message:
                            "\(target.redactedURL) answers (\(answer.answer)) before the server is started: another process holds the port; stop it, or let poolsize pick one with {port} in both \(PoolSizeError.Parameter.server.mention) and the URL"
                    )
                }
            }
            let process = try ServerProcess(arguments: command.arguments(size: size, port: port))
            do {
                try process.waitUntilReady(timeoutSeconds: readyTimeoutSeconds) { probe.check() }
                answeredOnce = true
                // A server a resize command sizes has not been sized yet (size 0).
                return RunningServer(size: resize == nil ? size : 0, process: process, target: target, port: port)
            } catch {
                process.stop(graceSeconds: graceSeconds)
                let taken = process.output.standardError.localizedCaseInsensitiveContains("in use")
                if port != nil, taken, attempt < 2 { continue }
                throw error
            }
        }
    }

    func stopHeld() {
        held?.process.stop(graceSeconds: graceSeconds)
        held = nil
    }
}
