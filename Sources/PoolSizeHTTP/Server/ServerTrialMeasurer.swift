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
/// gives the server's W/C: per slice of its window, C is the server's CPU per request and W the
/// rest of the mean latency.
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
    /// The request for a URL (the method, headers and body of `--http`).
    private let makeTarget: @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    private let clocks = SystemClocks()
    /// The low-load phase's server, kept between the phase's rounds.
    private var lowLoadServer: RunningServer?
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
        makeTarget: @escaping @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    ) {
        self.command = command
        self.url = url
        self.connections = connections
        self.readyTimeoutSeconds = readyTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.graceSeconds = graceSeconds
        self.makeTarget = makeTarget
    }

    deinit { lowLoadServer?.process.stop(graceSeconds: graceSeconds) }

    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        guard case let .closed(settings) = request.loop else {
            throw .invalidParameter(
                .arrivalRates,
                message: "a server sweep runs a closed loop; drop \(PoolSizeError.Parameter.arrivalRates.mention)")
        }
        if request.lowLoad { return (try lowLoadRound(request, settings: settings, cores: cores), nil) }
        stopLowLoadServer()
        let server: RunningServer
        do {
            server = try start(size: request.size)
        } catch {
            guard answeredOnce else { throw error }
            // The reason is a trial's note in trials.csv, not an error line of its own.
            let line = error.description
            let reason = line.hasPrefix("error: ") ? String(line.dropFirst("error: ".count)) : line
            return (Self.failedTrial(size: request.size, reason: reason), nil)
        }
        defer { server.process.stop(graceSeconds: graceSeconds) }
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        let driver = try HTTPLoadDriver(
            target: server.target, connections: connections, timeoutSeconds: requestTimeoutSeconds)
        let members = ServerProcess.processes(inSession: server.process.pid)
        var readings: [(usage: SessionUsage, busy: UInt64?, own: UInt64)] = []
        func read(_ processes: [Int32]) -> (usage: SessionUsage, busy: UInt64?, own: UInt64) {
            (
                SessionUsage.read(processes: processes, switches: true), clocks.machineBusyNanoseconds(),
                clocks.processUsage().cpuNanoseconds
            )
        }
        // As the window opens and as it closes, while the driver's connections are still open:
        // a thread-per-connection server's threads, and their CPU, end with them. At the close,
        // every process then in the session (a forking server's new ones too).
        let result = try driver.run(
            warmupNanoseconds: warmup, durationNanoseconds: settings.durationNanoseconds - warmup
        ) { _ in
            readings.append(read(readings.isEmpty ? members : ServerProcess.processes(inSession: server.process.pid)))
        }
        let before = readings.first ?? (SessionUsage(), nil, 0)
        let after =
            readings.count > 1
            ? readings[readings.count - 1] : read(ServerProcess.processes(inSession: server.process.pid))
        var metrics = Self.metrics(
            result, size: request.size, server: after.usage,
            cpuNanoseconds: after.usage.cpuNanoseconds(since: before.usage),
            switchesBefore: before.usage, cores: cores)
        if let busy0 = before.busy, let busy1 = after.busy, busy1 >= busy0 {
            let serverCPU = Double(after.usage.cpuNanoseconds(since: before.usage))
            let own = Double(after.own >= before.own ? after.own - before.own : 0)
            let others: Double = Double(busy1 - busy0) - serverCPU - own
            let capacity: Double = result.windowSeconds * Double(max(cores, 1)) * 1e9
            metrics.otherLoad = capacity > 0 ? max(0, others / capacity) : 0
        }
        let ended = server.process.exitOutcome
        metrics.invalidReason = problem(result, size: request.size, process: server.process, ended: ended)
        if ended != nil {
            // Its failures are the driver's connections refused once it was gone, not answers:
            // counted, they would withhold the whole sweep's recommendation (as a task that
            // fails does) for one trial that is left out already, with why.
            metrics.errors = 0
        }
        return (metrics, nil)
    }

    /// Stops a server the low-load phase left running.
    package func sweepEnded() { stopLowLoadServer() }

    /// Why this trial's figures are the driver's or a dying server's rather than the pool's, or nil.
    /// `ended` is how the server ended, nil while it runs.
    func problem(_ result: HTTPLoadResult, size: Int, process: ServerProcess, ended: ChildOutcome?) -> String? {
        if let ended {
            // Stopped first, so that all it wrote before it died is read.
            process.stop(graceSeconds: graceSeconds)
            return "the server exited during the trial (\(ended.summary)); \(process.lastLines)"
        }
        if connections < size {
            return
                "\(PoolSizeError.Parameter.connections.mention) kept \(connections) request\(connections == 1 ? "" : "s") in flight, fewer than the server's \(size) threads, so the driver, not the server, was the limit; pass at least \(size)"
        }
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
        if let running = lowLoadServer, running.size != request.size || running.process.hasExited {
            stopLowLoadServer()
        }
        let server: RunningServer
        let fresh = lowLoadServer == nil
        if let running = lowLoadServer { server = running } else { server = try start(size: request.size) }
        lowLoadServer = server
        let driver = try HTTPLoadDriver(target: server.target, connections: 1, timeoutSeconds: requestTimeoutSeconds)
        let members = ServerProcess.processes(inSession: server.process.pid)
        let slices = max(1, min(40, settings.durationNanoseconds / Self.sliceNanoseconds))
        var last: (HTTPLoadDriver.Checkpoint, SessionUsage)? = nil
        var waits: [Double] = [], cpus: [Double] = []
        // A fresh server's first requests load code and fill caches: not its steady W and C.
        let result = try driver.run(
            warmupNanoseconds: fresh ? 300_000_000 : 0, durationNanoseconds: settings.durationNanoseconds,
            checkpointNanoseconds: settings.durationNanoseconds / slices
        ) { point in
            let usage = SessionUsage.read(processes: members, switches: false)
            defer { last = (point, usage) }
            guard let (previous, previousUsage) = last, point.requests > previous.requests else { return }
            let count = Double(point.requests - previous.requests)
            let cpu = Double(usage.cpuNanoseconds(since: previousUsage)) / 1_000 / count
            let latency = Double(point.latencySumNanoseconds - previous.latencySumNanoseconds) / 1_000 / count
            cpus.append(cpu)
            waits.append(max(0, latency - cpu))
        }
        if let ended = server.process.exitOutcome {
            lowLoadServer = nil
            server.process.stop(graceSeconds: graceSeconds)
            throw .measurementFailed(
                "the server exited while one request at a time was measured (\(ended.summary)); \(server.process.lastLines)"
            )
        }
        var metrics = Self.metrics(
            result, size: request.size, server: SessionUsage(), cpuNanoseconds: 0, switchesBefore: SessionUsage(),
            cores: cores)
        metrics.perTaskCPUMicroseconds = cpus
        metrics.perTaskWaitMicroseconds = waits
        metrics.perTaskWaitCPURatios = zip(waits, cpus).compactMap { $1 > 0 ? $0 / $1 : nil }
        if let reason = result.firstFailure { metrics.failureExamples = [reason] }
        return metrics
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
                return RunningServer(size: size, process: process, target: target)
            } catch {
                process.stop(graceSeconds: graceSeconds)
                let taken = process.output.standardError.localizedCaseInsensitiveContains("in use")
                if port != nil, taken, attempt < 2 { continue }
                throw error
            }
        }
    }

    func stopLowLoadServer() {
        lowLoadServer?.process.stop(graceSeconds: graceSeconds)
        lowLoadServer = nil
    }
}
