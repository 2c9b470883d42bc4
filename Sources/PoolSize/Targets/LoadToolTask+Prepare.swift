import Foundation
import PoolSizeKit
import PoolSizeModel

extension LoadToolTask {
    /// The tool as a server sweep's load: `{port}` on both commands or on neither, `{rate}` when
    /// the sweep is an open loop (`atRate`) and only then, its program found now (the measurer
    /// resolves it again for each trial's port).
    func prepareBeside(_ server: ServerCommand, atRate: Bool, timeoutSeconds: Double) throws(PoolSizeError) -> (
        command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double
    ) {
        typealias P = PoolSizeError.Parameter
        let (command, parser) = try parsed(requiresSize: false)
        try Self.checkRate(command, atRate: atRate)
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
        try Self.checkRate(command, atRate: false)
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

    /// Refuses a command without `{rate}` in an open-loop sweep (`atRate`: the tool would run
    /// its own load, not the rate asked), and one with it in a closed loop, where no trial has a
    /// rate to give.
    private static func checkRate(_ command: LoadCommand, atRate: Bool) throws(PoolSizeError) {
        typealias P = PoolSizeError.Parameter
        if atRate && !command.usesRate {
            throw .invalidParameter(
                .load,
                message:
                    "has no {rate}, so the tool would run its own load, not the \(P.arrivalRates.mention) asked; write {rate} where the tool takes its request rate (k6 -e RATE={rate} with Examples/load/k6-rate.js, vegeta attack -rate={rate}, wrk2 -R{rate}), or drop \(P.arrivalRates.mention)"
            )
        }
        guard command.usesRate && !atRate else { return }
        throw .invalidParameter(
            .load,
            message:
                "has {rate}, but the sweep sets no rate; add \(PoolSizeError.Parameter.arrivalRates.mention) (with \(PoolSizeError.Parameter.server.mention)) for an open loop, or write the tool's own rate"
        )
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
