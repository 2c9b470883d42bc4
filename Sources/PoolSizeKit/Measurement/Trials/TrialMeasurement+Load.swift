import PoolSizeModel

extension TrialMeasurement {
    /// How a trial's tasks arrived, as recorded: the closed loop records nothing of its own; an
    /// open loop its arrivals, their latencies from intended arrival and the backlog.
    package enum Loop: Sendable, Equatable {
        /// Every queue kept busy, a finished task making room for the next.
        case closed
        /// Tasks arriving at a set rate, as the dispatcher recorded them.
        case open(OpenLoopRaw)

        /// The figures the record gets from the loop, into `record` (whose shared figures are
        /// derived already): nothing for the closed loop; for an open loop its figures, and the
        /// latency counted from each task's intended arrival over the window's arrivals.
        /// - Parameters:
        ///   - finished: the tasks that finished in the window, without failures.
        ///   - windowSeconds: the window's length.
        ///   - throughputPerSecond: tasks finished in the window per second, the rate carried.
        func record(
            into record: inout TrialRecord, finished: [TaskSample], windowSeconds: Double, throughputPerSecond: Double
        ) {
            guard case let .open(raw) = self else { return }
            // Tasks in service on average (Little's law on the service alone): what a pool that
            // keeps up holds at the window's edges, for the stability verdict's allowance.
            let serviceSeconds =
                finished.isEmpty
                ? 0
                : Double(finished.reduce(UInt64(0)) { $0 &+ ($1.ended &- $1.started) })
                    / Double(finished.count) / 1e9
            raw.record(
                into: &record, serviceSeconds: serviceSeconds, windowSeconds: windowSeconds,
                throughputPerSecond: throughputPerSecond)
        }
    }

    /// The open loop's raw record; nil for the closed loop.
    package var openLoop: OpenLoopRaw? {
        guard case let .open(raw) = loop else { return nil }
        return raw
    }
}
