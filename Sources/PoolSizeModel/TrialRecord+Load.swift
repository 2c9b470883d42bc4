extension TrialRecord {
    /// How a trial's tasks arrived, and what that load adds to the figures every trial has: the
    /// closed loop adds nothing; an open loop its rate, backlog and stability (`OpenLoopFigures`).
    package enum Loop: Equatable, Sendable {
        /// Every queue kept busy, a finished task making room for the next.
        case closed
        /// Tasks arriving at a set rate, with what the trial measured of it.
        case open(OpenLoopFigures)

        /// The open loop with `figures`, or the closed loop when there are none (a record read
        /// back from a form that keeps them optional).
        package init(figures: OpenLoopFigures?) {
            self = figures.map(Loop.open) ?? .closed
        }

        /// The open loop's figures; nil for the closed loop.
        package var figures: OpenLoopFigures? {
            switch self {
            case .closed: return nil
            case let .open(figures): return figures
            }
        }

        /// Changes the open loop's figures in place; the closed loop has none to change.
        package mutating func updateFigures<E: Error>(_ change: (inout OpenLoopFigures) throws(E) -> Void) throws(E) {
            guard case var .open(figures) = self else { return }
            try change(&figures)
            self = .open(figures)
        }

        /// Whether a window in which no task finished is a trial of nothing: a closed loop's,
        /// whose throughput is its only figure. An open loop's arrivals are judged by its own
        /// figures (the rate carried, the backlog), where a size that finished nothing is one
        /// that fell behind.
        package var emptyWindowMeasuresNothing: Bool { self == .closed }

        /// Why the trial did not measure the load it names, or nil when it did: an open loop
        /// whose dispatcher fell short of its rate over a window of `windowSeconds`.
        package func problem(windowSeconds: Double) -> String? {
            switch self {
            case .closed: return nil
            case let .open(figures): return figures.dispatcherShortfall(windowSeconds: windowSeconds)
            }
        }
    }

    /// The open-loop figures of the trial (`arrivalRates`); nil for a closed-loop trial.
    public var openLoop: OpenLoopFigures? { loop.figures }
    /// Whether tasks arrived at a set rate (open loop) rather than one per completion.
    public var isOpenLoop: Bool { loop != .closed }
    /// The offered arrival rate of an open-loop trial, tasks/s; nil for a closed-loop one.
    public var arrivalRate: ArrivalRate? { loop.figures?.arrivalRate }
}
