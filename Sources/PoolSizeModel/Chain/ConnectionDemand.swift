/// How many database connections a cell of a chain opens at most: the product of some knobs
/// plus a fixed overflow (`workers*pool+2`: a pool per worker, two connections of a sidecar).
package struct ConnectionDemand: Equatable, Sendable, Codable {
    /// The knobs whose values multiply, in the order written.
    package let factors: [String]
    /// Connections opened beside the pools (a pool's overflow, a job runner).
    package let overflow: Int

    package init(factors: [String], overflow: Int) {
        self.factors = factors
        self.overflow = overflow
    }

    /// Reads `workers*pool`, `workers * pool + 5`; every factor a knob of `space`.
    package static func parse(_ text: String, space: KnobSpace) throws(PoolSizeError) -> ConnectionDemand {
        let usage = "write the knobs whose product is the connections, with an optional overflow: workers*pool+2"
        let sides = text.split(separator: "+", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (1...2).contains(sides.count), !sides[0].isEmpty else {
            throw .invalidParameter(
                .databaseConnections, message: "'\(TerminalText.escape(text))' is not a product of knobs; \(usage)")
        }
        var overflow = 0
        if sides.count == 2 {
            guard let value = Int(sides[1]), value >= 0 else {
                throw .invalidParameter(
                    .databaseConnections,
                    message: "'\(TerminalText.escape(sides[1]))' is not a whole number of connections; \(usage)")
            }
            overflow = value
        }
        let factors = sides[0].split(separator: "*", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for factor in factors where !space.names.contains(factor) {
            throw .invalidParameter(
                .databaseConnections,
                message:
                    "'\(TerminalText.escape(factor))' is no knob; the knobs are \(KnobSpace.list(space.names)) (\(usage))"
            )
        }
        return ConnectionDemand(factors: factors, overflow: overflow)
    }

    /// The connections `cell` opens at most.
    package func connections(_ cell: KnobCell) -> Int {
        factors.reduce(1) { $0 * cell[$1] } + overflow
    }

    /// `workers × pool + 2`.
    package var written: String {
        factors.joined(separator: " × ") + (overflow > 0 ? " + \(overflow)" : "")
    }

    /// Why `cell` may not run under `limit`, in one sentence; nil when it may.
    package func exclusion(_ cell: KnobCell, limit: ConnectionLimit) -> String? {
        let needed = connections(cell)
        guard needed > limit.allowed else { return nil }
        return
            "\(cell): \(written) needs at least \(needed) connections; the server allows \(limit.allowed) for this role (\(limit.explanation))"
    }
}
