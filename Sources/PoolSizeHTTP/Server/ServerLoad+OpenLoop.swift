import PoolSizeKit
import PoolSizeModel

extension ServerLoad {
    /// An open-loop trial of the running `server`: arrivals at the trial's rate from the
    /// driver's one thread (`HTTPLoadDriver.runOpenLoop`), the server's session read as the
    /// window opens and closes, as for the closed loop. Throughput is the 2xx answers finished
    /// in the window, latency counts from each arrival's intended time, C is the server's CPU
    /// per answer and W the rest of a request's mean time at the server.
    func measureOpenLoop(_ request: TrialRequest, trial: OpenLoopTrial, server: RunningServer, cores: Int)
        throws(PoolSizeError) -> TrialMetrics
    {
        let driver = try HTTPLoadDriver(
            target: server.target, connections: connections, timeoutSeconds: requestTimeoutSeconds,
            connectionPerRequest: server.connectionPerRequest)
        var readings = ServerReadings(server: server, watch: database)
        let result = try driver.runOpenLoop(trial, seed: ArrivalSchedule.seed(forTrial: request.seed)) { _ in
            readings.read()
        }
        readings.finish()
        var metrics = ServerTrialFigures.metrics(
            result.load, size: request.size, server: readings.after.usage,
            cpuNanoseconds: readings.after.usage.cpuNanoseconds(since: readings.before.usage),
            switchesBefore: readings.before.usage, cores: cores, meanLatencyMicroseconds: result.serviceSeconds * 1e6)
        metrics.peakConcurrency = result.peakInFlight
        result.raw.record(
            into: &metrics.figures, serviceSeconds: result.serviceSeconds,
            windowSeconds: max(result.load.windowSeconds, 1e-9), throughputPerSecond: result.load.throughputPerSecond)
        finish(
            &metrics, result: result.load, readings: readings, server: server, cores: cores,
            connectionShortfall: ServerTrialValidity.connectionShortfall(
                result, trial: trial, size: request.size, connections: connections))
        return metrics
    }
}
