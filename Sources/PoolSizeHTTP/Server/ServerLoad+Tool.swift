import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

extension ServerLoad {
    /// A trial loaded by the user's tool: its throughput, latency and errors as it printed them,
    /// the server's CPU, threads and memory over the tool's run. `atRate`: an open-loop trial,
    /// whose rate the tool is given (`{rate}`) and whose figures it gives
    /// (`recordAtRate`).
    func measureWithTool(
        _ tool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double), size: Int,
        atRate trial: OpenLoopTrial?, server: RunningServer, cores: Int
    ) throws(PoolSizeError) -> TrialMetrics {
        let measurer = try LoadToolMeasurer(
            command: tool.command, parser: tool.parser, timeoutSeconds: tool.timeoutSeconds, port: server.port)
        let members = ServerProcess.processes(inSession: server.process.pid)
        let before = SessionUsage.read(processes: members, switches: true)
        database?.windowOpened()
        let run = measurer.run(size: size, ratePerSecond: trial?.ratePerSecond)
        let watched = database?.windowClosed().database
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
        ServerTrialFigures.record(after, since: before, into: &metrics)
        var processes = ServerTrialFigures.serverFigures(after, since: before, windowSeconds: run.wallSeconds)
        processes.database = watched
        metrics.watched = .server(processes)
        if metrics.invalidReason == nil,
            let idle = ServerTrialValidity.idleServer(cpuNanoseconds: cpu, requests: requests)
        {
            metrics.invalidReason = idle
        }
        if let trial {
            Self.recordAtRate(&metrics, figures: figures, trial: trial, size: size, tool: run.toolName)
        }
        if let ended = server.process.exitOutcome {
            metrics.invalidReason = ServerTrialValidity.exited(
                ended, process: server.process, graceSeconds: graceSeconds)
            // The tool's failures after the server died are not answers (as with the driver).
            metrics.errors = 0
        }
        return metrics
    }
}
