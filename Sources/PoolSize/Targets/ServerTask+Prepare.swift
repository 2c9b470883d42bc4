import Foundation
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel
import PoolSizePostgres
import PoolSizeProcess

extension ServerTask {
    /// The most requests a server sweep's driver keeps in flight by default, at the least.
    package static let defaultConnectionsFloor = 64

    /// Checks the server's commands, URL and load against the sizes, and builds the measurer
    /// that starts (or resizes) the server at each trial's size and loads it.
    func prepare(_ context: TargetContext, timeoutSeconds: Double) throws(PoolSizeError) -> PreparedTarget {
        typealias P = PoolSizeError.Parameter
        let command = try ServerCommand(self.command, allowsNoSize: resize != nil)
        var sizing = ServerSizing.restart
        var resizing: ServerResize? = nil
        if let resize {
            let method: ServerResize.Method
            if resize == ServerTask.signalsResize {
                method = .signals
            } else {
                let resizeCommand = try ServerCommand(resize: resize)
                if resizeCommand.usesPort && !command.usesPort {
                    throw .invalidParameter(
                        .resize,
                        message:
                            "has {port}, but \(P.server.mention) has none; add {port} to both, or write the server's own port"
                    )
                }
                // Found now, not after the server has started.
                _ = try ServerProcess.resolve(
                    resizeCommand.words[0], path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                    parameter: .resize)
                method = .command(resizeCommand)
            }
            // Signals read the workers back from /proc: no time is needed beyond that.
            let settleSeconds = self.settleSeconds ?? (method == .signals ? 0 : 2)
            guard settleSeconds >= 0 && settleSeconds <= 600 else {
                throw .invalidParameter(
                    .settle, message: "must be 0s to 10m, got \(UnitFormat.duration(settleSeconds))")
            }
            resizing = ServerResize(method, settleSeconds: settleSeconds)
            let shown: String
            if case let .command(resizeCommand) = method {
                shown = Secrets.commandText(resizeCommand.display)
            } else {
                shown = resize
            }
            sizing = .resize(command: shown, settleSeconds: settleSeconds)
        } else if settleSeconds != nil {
            throw .invalidParameter(
                .settle, message: "applies to \(P.resize.mention); add \(P.resize.mention) or drop \(P.settle.mention)")
        }
        let secretQuery = Set(request.maskedQuery)
        let url = try ServerURL(request.url, server: command, secretQuery: secretQuery)
        guard readyTimeoutSeconds >= 0.1 && readyTimeoutSeconds <= 3600 else {
            throw .invalidParameter(
                .readyTimeout, message: "must be 100ms to 1h, got \(UnitFormat.duration(readyTimeoutSeconds))")
        }
        let connections = try self.connections ?? Self.defaultConnections(context)
        guard (1...HTTPLoadDriver.connectionLimit).contains(connections) else {
            throw .invalidParameter(
                .connections,
                message: "must be 1 to \(HTTPLoadDriver.connectionLimit) requests in flight, got \(connections)")
        }
        if loadTool == nil {
            // The run's driver refuses connections past the descriptor limit: so does its dry run.
            try HTTPLoadDriver.checkDescriptors(for: connections)
            // A trial of more threads than requests in flight measures the driver, and is
            // invalid: refused before any runs when the sizes are listed (`auto`'s are found
            // while measuring).
            if !context.listedSizes.isEmpty,
                let largest = (context.listedSizes + RuleSet.threadPool(cores: context.cores).sizes).max(),
                largest > connections
            {
                throw .invalidParameter(
                    .connections,
                    message:
                        "keeps \(connections) request\(connections == 1 ? "" : "s") in flight, fewer than the largest size \(largest) (the listed sizes and the rules of thumb's), whose trial the driver, not the server, would limit; pass \(P.connections.mention) \(largest) or more (the default is twice the largest size)"
                )
            }
        }
        let request = self.request
        let body = try request.body()
        let makeTarget: @Sendable (String) throws(PoolSizeError) -> HTTPTarget = { url throws(PoolSizeError) in
            try request.target(url: url, body: body)
        }
        let shown = try makeTarget(url.url(port: url.usesPort ? ServerURL.checkedPort : nil))
        // The server's figures (its CPU, threads, memory) and its stop are read and sent on
        // this machine: a server elsewhere would be measured through its ssh or kubectl client.
        guard shown.isLoopback else {
            throw .invalidParameter(
                .httpURL,
                message:
                    "a server sweep loads a server on this machine (127.0.0.1, ::1 or localhost), whose processes it measures; run poolsize on the server's host"
            )
        }
        let redacted = shown.redactedURL.replacingOccurrences(of: ":\(ServerURL.checkedPort)", with: ":{port}")
        let tool = try loadTool.map { tool throws(PoolSizeError) in
            try tool.prepareBeside(command, atRate: context.load.arrival != nil, timeoutSeconds: timeoutSeconds)
        }
        let stop = try stopSignal.map { text throws(PoolSizeError) in try ServerStopSignal(text) } ?? .term
        let measurer = ServerTrialMeasurer(
            command: command, url: url, connections: connections, readyTimeoutSeconds: readyTimeoutSeconds,
            requestTimeoutSeconds: timeoutSeconds, stopSignal: stop.number, resize: resizing, loadTool: tool,
            database: database.map { PostgresDatabaseWatch(conninfo: $0) }, makeTarget: makeTarget)
        let program = URL(fileURLWithPath: command.words[0]).lastPathComponent
        let spec = WorkloadSpec(
            name: "server-" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "server: \(Secrets.commandText(command.display)) at \(request.method) \(redacted)",
            cpuMicroseconds: 0, waitMicroseconds: 0, trialMilliseconds: context.trialMilliseconds ?? 2000)
        var setup = ServerSetup(
            command: Secrets.commandText(command.display), url: redacted, connections: connections,
            readyTimeoutSeconds: readyTimeoutSeconds, sizing: sizing)
        if stop != .term { setup.stopSignal = stop.name }
        if let tool {
            setup.loadTool = Secrets.commandText(
                ([tool.command.display] + (loadTool?.parse ?? [])).joined(separator: " \(P.parse.mention) "))
        }
        return PreparedTarget(
            spec: spec, run: .external(measurer), isLoopbackServer: false, taskTimeoutSeconds: timeoutSeconds,
            target: .server(setup))
    }
}
