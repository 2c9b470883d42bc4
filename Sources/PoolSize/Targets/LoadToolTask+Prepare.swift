import Foundation
import PoolSizeKit
import PoolSizeModel

extension LoadToolTask {
    /// The tool as a server sweep's load: `{port}` on both commands or on neither, its program
    /// found now (the measurer resolves it again for each trial's port).
    func prepareBeside(_ server: ServerCommand, timeoutSeconds: Double) throws(PoolSizeError) -> (
        command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double
    ) {
        typealias P = PoolSizeError.Parameter
        let (command, parser) = try parsed(requiresSize: false)
        _ = try LoadToolMeasurer(
            command: command, parser: parser, timeoutSeconds: timeoutSeconds, port: ServerURL.checkedPort)
        if command.usesPort && !server.usesPort {
            throw .invalidParameter(
                .load,
                message:
                    "has {port}, but \(P.server.mention) has none; add {port} to both, or write the server's own port")
        }
        // The server listens on a port poolsize picks at each start: a tool aimed at a port of
        // its own loads some other server, whose figures would be taken for this one's.
        if server.usesPort && !command.usesPort {
            throw .invalidParameter(
                .load,
                message:
                    "has no {port}, but \(P.server.mention) listens on the port poolsize picks, so the tool would load another server; write {port} where the tool takes the server's address, e.g. wrk http://127.0.0.1:{port}/"
            )
        }
        return (command, parser, timeoutSeconds)
    }

    /// The tool alone: its own concurrency is the pool, `{size}` in its command; no server is
    /// started, so a `{port}` is refused and the program is found now.
    func prepareAlone(_ context: TargetContext, timeoutSeconds: Double) throws(PoolSizeError) -> PreparedTarget {
        if context.sizes == .auto {
            // `auto` places its sizes around the formula's N, which needs a W/C the tool cannot give.
            throw .invalidParameter(
                .sizes,
                message:
                    "auto places sizes around the formula's N, and \(PoolSizeError.Parameter.load.mention) alone measures no W/C; list the sizes (\(PoolSizeError.Parameter.sizes.mention) 1,2,4,8,16)"
            )
        }
        let (command, parser) = try parsed(requiresSize: true)
        let measurer = try LoadToolMeasurer(
            command: command, parser: parser, timeoutSeconds: timeoutSeconds, port: nil)
        let program = String(command.program.split(separator: "/").last ?? "tool")
        let shown = Secrets.commandText(command.display)
        let spec = WorkloadSpec(
            name: "load-" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "load tool alone: \(shown), its concurrency {size}", cpuMicroseconds: 0, waitMicroseconds: 0,
            trialMilliseconds: context.trialMilliseconds ?? 2000)
        return PreparedTarget(
            spec: spec, run: .external(measurer), isLoopbackServer: false, taskTimeoutSeconds: timeoutSeconds,
            target: .loadTool(LoadToolSetup(command: shown, parse: parse.map(Secrets.commandText))))
    }

    /// The command and its reader; a tool whose figures cannot be read is refused.
    private func parsed(requiresSize: Bool) throws(PoolSizeError) -> (LoadCommand, LoadToolParser) {
        guard !parse.isEmpty else {
            throw .invalidParameter(
                .parse,
                message:
                    "is needed with \(PoolSizeError.Parameter.load.mention) to read the tool's figures: wrk, pgbench, locust, k6, or a regular expression with a (?<throughput>…) group"
            )
        }
        return (try LoadCommand(command, requiresSize: requiresSize), try LoadToolParser(parse))
    }
}
