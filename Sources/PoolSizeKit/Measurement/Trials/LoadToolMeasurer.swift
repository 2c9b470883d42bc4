import Foundation
import PoolSizeModel
import PoolSizeProcess

/// Measures a trial with the user's own load tool (the `load` setting: wrk, pgbench, k6, ab,
/// redis-benchmark): runs `command` once, the trial's size and the server's port filled in, as
/// an argument vector (no shell), through the one child-process runner: stdin from /dev/null,
/// stopped with its process group after `timeoutSeconds` (SIGTERM, then SIGKILL) and when the
/// sweep is interrupted (`ChildProcessRunner.stopAll`). `parser` reads the figures from its
/// stdout and stderr (`LoadToolRun`).
///
/// A tool that exits other than with status 0, is stopped, or prints no throughput gives an
/// invalid trial (`invalidReason`: how it ended and its last lines), never an error: the sweep
/// keeps the trials it finished. The load is the tool's own: its duration, its connections
/// (`{size}` when it sizes them) and its request rate, whatever the request's loop says.
package struct LoadToolMeasurer: TrialMeasuring, Sendable {
    /// The tool's command.
    package let command: LoadCommand
    /// Reads its output.
    package let parser: LoadToolParser
    /// A run longer than this is stopped, and its trial invalid.
    package let timeoutSeconds: Double
    /// The server's port, for `{port}`; nil when poolsize picked none.
    package let port: Int?
    /// The program, resolved.
    package let executable: String
    /// The tool's environment; this process's when nil.
    let environment: [String: String]?

    /// A measurer running `command`; throws (naming `load`) when its program is not found, or
    /// when it has `{port}` and `port` is nil.
    /// - Parameters:
    ///   - port: the port of the server poolsize started for the trial, nil when it picked none.
    ///   - environment: the tool's environment (its PATH finds the program); this process's
    ///     when nil.
    package init(
        command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double, port: Int?,
        environment: [String: String]? = nil
    ) throws(PoolSizeError) {
        precondition(timeoutSeconds > 0, "a load tool needs time to run")
        if command.usesPort && port == nil {
            throw .invalidParameter(
                .load,
                message:
                    "has {port}, but poolsize starts no server on a port it picks; write the port the server listens on, or give \(PoolSizeError.Parameter.server.mention) with {port} too"
            )
        }
        let path = (environment ?? ProcessInfo.processInfo.environment)["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        executable = try ServerProcess.resolve(command.program, path: path, parameter: .load)
        self.command = command
        self.parser = parser
        self.timeoutSeconds = timeoutSeconds
        self.port = port
        self.environment = environment
    }

    /// Runs the tool once for a trial at `size`, and at `ratePerSecond` when the command has
    /// `{rate}` (an open-loop trial's arrival rate).
    package func run(size: Int, ratePerSecond: Double? = nil) -> LoadToolRun {
        let arguments = command.arguments(size: size, port: port, ratePerSecond: ratePerSecond)
        let child = ChildProcessRunner(timeoutSeconds: timeoutSeconds).run(
            executable: URL(fileURLWithPath: executable), arguments: Array(arguments.dropFirst()),
            environment: environment, watchThreads: true)
        return LoadToolRun(arguments: arguments, child: child, parser: parser)
    }

    /// The trial at `request.size`: the tool's figures (`LoadToolRun.metrics`); no critical
    /// section, so no integrity report.
    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        (run(size: request.size).metrics, nil)
    }
}
