import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// How a server trial is loaded, chosen per trial: the event-driven driver's closed loop
/// (`connections` requests in flight), its open loop (arrivals at the trial's rate,
/// `ServerLoad+OpenLoop`), or the user's own load tool once per trial (`ServerLoad+Tool`), at
/// the trial's rate when it is open (`ServerLoad+ToolOpenLoop`).
/// Each reads the server's session as the window opens and closes, and leaves the figures and
/// the trial's validity to `ServerTrialFigures` and `ServerTrialValidity`.
struct ServerLoad {
    /// Requests kept in flight during a driven trial.
    let connections: Int
    /// How long one request may take before it counts as failed.
    let requestTimeoutSeconds: Double
    /// How long a server that exited mid-trial has between SIGTERM and SIGKILL when stopped.
    let graceSeconds: Double
    /// The user's own load tool (`load`, `parse`) with its timeout; nil: the driver loads the URL.
    let loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)?
    /// The database behind the server, watched over each trial's window; nil: none.
    let database: (any SweepWindowWatch)?

    /// The trial `request` asks for, on the running `server`.
    func measure(_ request: TrialRequest, server: RunningServer, cores: Int) throws(PoolSizeError) -> TrialMetrics {
        switch request.loop {
        case let .open(trial):
            if let loadTool {
                // The target refuses such a command before any trial runs (LoadToolTask).
                guard loadTool.command.usesRate else {
                    throw .invalidParameter(
                        .load,
                        message:
                            "has no {rate}, so it cannot run an open-loop trial; write {rate} where the tool takes its request rate"
                    )
                }
                return try measureWithTool(loadTool, size: request.size, atRate: trial, server: server, cores: cores)
            }
            return try measureOpenLoop(request, trial: trial, server: server, cores: cores)
        case let .closed(settings):
            if let loadTool {
                return try measureWithTool(loadTool, size: request.size, atRate: nil, server: server, cores: cores)
            }
            return try measureClosedLoop(request, settings: settings, server: server, cores: cores)
        }
    }

    /// A closed-loop trial of the running `server`: `connections` requests kept in flight by
    /// the driver over the trial's window, after its warm-up.
    func measureClosedLoop(_ request: TrialRequest, settings: TrialSettings, server: RunningServer, cores: Int)
        throws(PoolSizeError) -> TrialMetrics
    {
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        let driver = try HTTPLoadDriver(
            target: server.target, connections: connections, timeoutSeconds: requestTimeoutSeconds,
            connectionPerRequest: server.connectionPerRequest)
        var readings = ServerReadings(server: server, watch: database)
        let result = try driver.run(
            warmupNanoseconds: warmup, durationNanoseconds: settings.durationNanoseconds - warmup, stop: settings.stop
        ) { _ in readings.read() }
        readings.finish()
        var metrics = ServerTrialFigures.metrics(
            result, size: request.size, server: readings.after.usage,
            cpuNanoseconds: readings.after.usage.cpuNanoseconds(since: readings.before.usage),
            switchesBefore: readings.before.usage, cores: cores)
        metrics.windowEnd = result.windowEnded
        metrics.throughputMargin = result.throughputMargin
        finish(
            &metrics, result: result, readings: readings, server: server, cores: cores,
            connectionShortfall: ServerTrialValidity.connectionShortfall(connections: connections, size: request.size))
        return metrics
    }

    /// The figures every driven trial adds once its load has run: the server's processes, how
    /// busy the rest of the machine was, and why the trial is not the pool's when it is not
    /// (the server exited, the driver's core was the limit, `connectionShortfall`).
    func finish(
        _ metrics: inout TrialMetrics, result: HTTPLoadResult, readings: ServerReadings, server: RunningServer,
        cores: Int, connectionShortfall: String?
    ) {
        let before = readings.before, after = readings.after
        var figures = ServerTrialFigures.serverFigures(
            after.usage, since: before.usage, windowSeconds: result.windowSeconds)
        figures.database = readings.database
        figures.connectionPerRequest = server.connectionPerRequest
        metrics.watched = .server(figures)
        if let busy0 = before.busy, let busy1 = after.busy, busy1 >= busy0 {
            let serverCPU = Double(after.usage.cpuNanoseconds(since: before.usage))
            let own = Double(after.own >= before.own ? after.own - before.own : 0)
            let others: Double = Double(busy1 - busy0) - serverCPU - own
            let capacity: Double = result.windowSeconds * Double(max(cores, 1)) * 1e9
            metrics.otherLoad = capacity > 0 ? max(0, others / capacity) : 0
        }
        let ended = server.process.exitOutcome
        metrics.invalidReason = ServerTrialValidity.problem(
            result, process: server.process, ended: ended, connectionShortfall: connectionShortfall,
            graceSeconds: graceSeconds)
        if ended != nil {
            // Its failures are the driver's connections refused once it was gone, not answers:
            // counted, they would withhold the whole sweep's recommendation (as a task that
            // fails does) for one trial that is left out already, with why.
            metrics.errors = 0
        }
    }
}
