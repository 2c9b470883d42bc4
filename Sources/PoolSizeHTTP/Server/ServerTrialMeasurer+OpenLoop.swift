import PoolSizeKit
import PoolSizeModel

extension ServerTrialMeasurer {
    /// The share of a window's arrivals that may wait in the driver for a connection before the
    /// trial asks whether that could have changed its verdict: one in a thousand, below what
    /// the highest percentile an objective may name (p99.9) rests on.
    static let connectionWaitShare = 0.001

    /// An open-loop trial of the running `server`: arrivals at the trial's rate from the
    /// driver's one thread (`HTTPLoadDriver.runOpenLoop`), the server's session read as the
    /// window opens and closes, as for the closed loop. Throughput is the 2xx answers finished
    /// in the window, latency counts from each arrival's intended time, C is the server's CPU
    /// per answer and W the rest of a request's mean time at the server.
    func measureOpenLoop(_ request: TrialRequest, server: RunningServer, cores: Int) throws(PoolSizeError)
        -> TrialMetrics
    {
        guard case let .open(trial) = request.loop else {
            throw .measurementFailed("an open-loop trial was asked for without its arrivals")
        }
        if loadTool != nil {
            throw .invalidParameter(
                .load,
                message:
                    "runs the load tool's own load, which has no arrival rate of poolsize's; drop \(PoolSizeError.Parameter.arrivalRates.mention) or \(PoolSizeError.Parameter.load.mention)"
            )
        }
        let driver = try HTTPLoadDriver(
            target: server.target, connections: connections, timeoutSeconds: requestTimeoutSeconds)
        var readings = ServerReadings(server: server)
        let result = try driver.runOpenLoop(trial, seed: ArrivalSchedule.seed(forTrial: request.seed)) { _ in
            readings.read()
        }
        readings.finish()
        var metrics = Self.metrics(
            result.load, size: request.size, server: readings.after.usage,
            cpuNanoseconds: readings.after.usage.cpuNanoseconds(since: readings.before.usage),
            switchesBefore: readings.before.usage, cores: cores, meanLatencyMicroseconds: result.serviceSeconds * 1e6)
        metrics.peakConcurrency = result.peakInFlight
        result.raw.record(
            into: &metrics.figures, serviceSeconds: result.serviceSeconds,
            windowSeconds: max(result.load.windowSeconds, 1e-9), throughputPerSecond: result.load.throughputPerSecond)
        finish(
            &metrics, result: result.load, readings: readings, server: server, cores: cores,
            connectionShortfall: Self.connectionShortfall(
                result, trial: trial, size: request.size, connections: connections))
        return metrics
    }

    /// The connections an open-loop trial at `ratePerSecond` of a server of `size` needs so
    /// that an arrival held back in the driver cannot change its verdict: at least the size
    /// (with fewer the server's pool never fills, and the driver limits it), and with an
    /// objective the rate × twice the objective. Past that many requests at the server, Little's
    /// law puts the newest's time beyond the objective, so the trial fails it wherever the
    /// queue is held; below it, the queue in the driver hides how the server's own queue
    /// behaves.
    package static func neededConnections(ratePerSecond: Double, latencySLOMicroseconds: Double?, size: Int) -> Int {
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
}
