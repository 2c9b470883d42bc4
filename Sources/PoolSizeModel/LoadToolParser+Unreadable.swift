extension LoadToolParser {
    /// Why a load tool's output gave no figures: the trial is then invalid, with this reason.
    package enum Unreadable: Error, Equatable, Sendable, CustomStringConvertible {
        /// No expression captured a throughput.
        case noThroughput
        /// A group captured text that is not its figure (`LoadToolGroup.expected`).
        case notAFigure(group: LoadToolGroup, captured: String)
        /// A group captured a figure past `LoadToolGroup.ceiling`: no measurement, as nan or a
        /// negative one is none.
        case outOfRange(group: LoadToolGroup, captured: String)

        /// One line, after the tool's name: `printed no throughput`.
        package var description: String {
            switch self {
            case .noThroughput:
                return "printed no throughput"
            case let .notAFigure(group, captured):
                return
                    "printed '\(TerminalText.excerpt(captured))' as its \(group.rawValue), which is not \(group.expected)"
            case let .outOfRange(group, captured):
                return
                    "printed '\(TerminalText.excerpt(captured))' as its \(group.rawValue), beyond any measurement (2^53 or more)"
            }
        }
    }
}
