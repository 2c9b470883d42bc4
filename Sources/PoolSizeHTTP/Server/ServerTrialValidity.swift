import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// When a server trial's figures are not the server's pool's, and the words that say why: the
/// server exited, the driver's core or its connections were the limit, the load tool loaded
/// something else. Each rule gives nil for a trial it does not refuse.
enum ServerTrialValidity {
    /// Share of its core the driver may use before a trial says the driver was the limit.
    static let driverBusyLimit = 0.9

    /// The share of a window's arrivals that may wait in the driver for a connection before the
    /// trial asks whether that could have changed its verdict: one in a thousand, below what
    /// the highest percentile an objective may name (p99.9) rests on.
    static let connectionWaitShare = 0.001

    /// Less CPU than this per request the tool counted is no server's work: answering one costs
    /// microseconds (system calls to read and write it at least), while an idle server still
    /// spends some CPU of its own (timers, a collector), which a trial's few requests must not
    /// pass for their work.
    static let idleServerNanosecondsPerRequest = 1000.0

    /// Why this trial's figures are the driver's or a dying server's rather than the pool's, or nil.
    /// `ended` is how the server ended, nil while it runs; `connectionShortfall` why the
    /// driver's connections were too few for the trial, nil when they were enough.
    static func problem(
        _ result: HTTPLoadResult, process: ServerProcess, ended: ChildOutcome?, connectionShortfall: String?,
        graceSeconds: Double
    ) -> String? {
        if let ended { return exited(ended, process: process, graceSeconds: graceSeconds) }
        if let connectionShortfall { return connectionShortfall }
        let busy = result.windowSeconds > 0 ? result.driverCPUMicroseconds / 1e6 / result.windowSeconds : 0
        if busy > driverBusyLimit {
            return
                "the load driver used \(UnitFormat.percent(busy)) of its core, so it, not the server, may have been the limit (\(UnitFormat.number(result.driverCPUMicrosecondsPerRequest)) µs of its CPU per request)"
        }
        return nil
    }

    /// Why a trial whose server exited is not the pool's: how it ended and its last lines. The
    /// server is stopped first, so that all it wrote before it died is read.
    static func exited(_ ended: ChildOutcome, process: ServerProcess, graceSeconds: Double) -> String {
        process.stop(graceSeconds: graceSeconds)
        return "the server exited during the trial (\(ended.summary)); \(process.lastLines)"
    }

    /// Why a closed-loop trial of a server of `size` threads measured the driver: its
    /// `connections` were fewer than the threads; nil when they were enough.
    static func connectionShortfall(connections: Int, size: Int) -> String? {
        guard connections < size else { return nil }
        return
            "\(PoolSizeError.Parameter.connections.mention) kept \(connections) request\(connections == 1 ? "" : "s") in flight, fewer than the server's \(size) threads, so the driver, not the server, was the limit; pass at least \(size)"
    }

    /// The connections an open-loop trial at `ratePerSecond` of a server of `size` needs so
    /// that an arrival held back in the driver cannot change its verdict: at least the size
    /// (with fewer the server's pool never fills, and the driver limits it), and with an
    /// objective the rate × twice the objective. Past that many requests at the server, Little's
    /// law puts the newest's time beyond the objective, so the trial fails it wherever the
    /// queue is held; below it, the queue in the driver hides how the server's own queue
    /// behaves.
    static func neededConnections(ratePerSecond: Double, latencySLOMicroseconds: Double?, size: Int) -> Int {
        guard let slo = latencySLOMicroseconds, ratePerSecond.isFinite, slo.isFinite else { return max(size, 1) }
        let inFlight = (ratePerSecond * 2 * slo / 1e6).rounded(.up)
        return max(size, 1, Int(min(inFlight, Double(HTTPLoadDriver.connectionLimit))))
    }

    /// Why an open-loop trial measured the driver's queue rather than the server's, or nil: more
    /// than `connectionWaitShare` of the window's arrivals found every connection busy, and the
    /// connections were fewer than `neededConnections`.
    static func connectionShortfall(_ result: HTTPOpenLoopResult, trial: OpenLoopTrial, size: Int, connections: Int)
        -> String?
    {
        let arrivals = result.raw.arrivalsInWindow
        let waited = result.waitedForConnection
        guard waited > 0, Double(waited) > connectionWaitShare * Double(arrivals) else { return nil }
        let needed = neededConnections(
            ratePerSecond: trial.ratePerSecond, latencySLOMicroseconds: trial.latencySLOMicroseconds, size: size)
        guard connections < needed else { return nil }
        let why =
            trial.latencySLOMicroseconds.map { slo in
                "the rate × twice the objective of \(UnitFormat.duration(microseconds: slo)), and at least the size"
            } ?? "at least the size"
        return
            "\(waited) of the window's \(arrivals) arrivals found all \(connections) of \(PoolSizeError.Parameter.connections.mention) busy and waited in the driver (up to \(UnitFormat.duration(microseconds: Double(result.longestConnectionWaitNanoseconds) / 1_000))), so the driver, not the server, held the queue; pass \(PoolSizeError.Parameter.connections.mention) \(needed) or more (\(why))"
    }

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

    /// A trial whose server could not be started: no figures, and why.
    static func failedTrial(size: Int, reason: String) -> TrialMetrics {
        var metrics = TrialMetrics(
            windowSeconds: 0, throughputPerSecond: 0, cpuMicrosecondsPerTask: 0, waitMicrosecondsPerTask: 0,
            utilization: 0, peakConcurrency: 0, threads: 0)
        metrics.invalidReason = reason
        return metrics
    }
}
