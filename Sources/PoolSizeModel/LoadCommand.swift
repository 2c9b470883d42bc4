import Foundation

/// The command that runs the user's own load tool (wrk, pgbench, k6, ab, redis-benchmark) once
/// per trial, with the placeholders of `ServerCommand`: `{size}`, the trial's size, `{port}`,
/// the port poolsize picked for the server it started, and `{rate}`, an open-loop trial's
/// arrival rate in requests a second (`rateText`). Split into words as a shell
/// would (`ShellWords`, no shell runs) and filled in word by word, as a server command is; `{{`
/// writes a literal `{`. Errors name the setting `load`.
///
/// When poolsize starts no server at each size, `{size}` is the only thing that changes between
/// sizes (the tool's own concurrency: `pgbench -c {size}` sizes a connection pool with no
/// restart), so such a command must hold it; beside a server it may, or may not.
package struct LoadCommand: Equatable, Sendable {
    /// The words as given, placeholders unfilled.
    package let words: [String]
    /// The placeholders the words hold.
    package let placeholders: Set<ServerCommand.Placeholder>

    /// Splits and checks `line`: one line per problem, naming the setting (`load`).
    /// - Parameter requiresSize: true when no server is started at each size, so that `{size}`
    ///   is all that tells one size's trial from another's.
    package init(_ line: String, requiresSize: Bool) throws(PoolSizeError) {
        let words = try ShellWords.split(line, parameter: .load)
        var found: Set<ServerCommand.Placeholder> = []
        for word in words {
            found.formUnion(
                try ServerCommand.placeholders(in: word, known: [.size, .port, .rate], parameter: .load))
        }
        // The program is resolved once, before the first trial: it cannot change with the size.
        let program = ServerCommand.pieces(words[0])
        if program.contains(where: { if case .placeholder = $0 { true } else { false } }) {
            throw .invalidParameter(
                .load,
                message:
                    "names its program with a placeholder ('\(TerminalText.escape(words[0]))'); write the program as is and the placeholders in its arguments"
            )
        }
        if requiresSize && !found.contains(.size) {
            throw .invalidParameter(
                .load,
                message:
                    "has no {size}, and no \(PoolSizeError.Parameter.server.mention) is started at each size, so every size would run the same load; "
                    + "add {size} where the tool takes its concurrency (pgbench -c {size}, say), "
                    + "or give \(PoolSizeError.Parameter.server.mention), the server whose pool is sized")
        }
        self.words = words
        placeholders = found
    }

    /// The program as it is run (`{{` written as `{`): found on PATH unless it holds a `/`.
    package var program: String { ServerCommand.fill(words[0], [:]) }

    /// Whether the tool is told the trial's size.
    package var usesSize: Bool { placeholders.contains(.size) }

    /// Whether the tool is told the server's port, which the caller then gives.
    package var usesPort: Bool { placeholders.contains(.port) }

    /// Whether the tool is told an open-loop trial's arrival rate.
    package var usesRate: Bool { placeholders.contains(.rate) }

    /// The argument vector for one trial: every placeholder filled in. `port` is required when
    /// the command has `{port}`, `ratePerSecond` when it has `{rate}`.
    package func arguments(size: Int, port: Int?, ratePerSecond: Double? = nil) -> [String] {
        precondition(!usesPort || port != nil, "the command has {port}: give a port")
        precondition(!usesRate || ratePerSecond != nil, "the command has {rate}: give a rate")
        var values = [ServerCommand.Placeholder.size: String(size)]
        if let port { values[.port] = String(port) }
        if let ratePerSecond { values[.rate] = Self.rateText(ratePerSecond) }
        return words.map { ServerCommand.fill($0, values) }
    }

    /// A rate as `{rate}` writes it: requests a second, a whole number when it is one (`400`),
    /// else with up to three decimals and no trailing zeros (`12.5`), never an exponent, as
    /// k6's `rate`, Vegeta's `-rate` and wrk2's `-R` take a number.
    package static func rateText(_ perSecond: Double) -> String {
        if perSecond == perSecond.rounded(), abs(perSecond) < 1e15 { return String(Int64(perSecond)) }
        var text = String(format: "%.3f", perSecond)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The command as it can be typed again, placeholders unfilled.
    package var display: String { ShellWords.join(words) }
}
