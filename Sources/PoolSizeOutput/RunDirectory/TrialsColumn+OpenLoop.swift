import PoolSizeModel

extension TrialsColumn {
    /// The open loop's columns, in file order: the arrival rate, which makes a row an open-loop
    /// trial, then its figures. Each is empty for a closed-loop trial and read only into an
    /// open-loop one.
    static let openLoopColumns: [TrialsColumn] = [
        TrialsColumn(
            "arrival_rate_per_s",
            write: { figure($0) { CSVField.number($0.arrivalRate.perSecond, decimals: 3) } },
            read: { row, r throws(PoolSizeError) in r.loop = try row.arrival(achieved: r.throughputPerSecond) }),
        openLoopFigure(
            "offered_per_s", write: { CSVField.number($0.offeredPerSecond, decimals: 3) },
            read: { row, o throws(PoolSizeError) in o.offeredPerSecond = try row.number("offered_per_s") }),
        openLoopFigure(
            "backlog_mean", write: { CSVField.number($0.backlogMean, decimals: 3) },
            read: { row, o throws(PoolSizeError) in o.backlogMean = try row.number("backlog_mean") }),
        openLoopFigure(
            "backlog_max", write: { $0.backlogMeasured ? String($0.backlogMax) : "" },
            read: { row, o throws(PoolSizeError) in o.backlogMax = try row.integer("backlog_max") }),
        openLoopFigure(
            "backlog_growth", signed: true, write: { CSVField.number($0.backlogGrowth, decimals: 3) },
            read: { row, o throws(PoolSizeError) in o.backlogGrowth = try row.number("backlog_growth") }),
        openLoopFigure(
            "stable", write: { $0.stable ? "yes" : "no" },
            read: { row, o throws(PoolSizeError) in o.stable = try row.stable() }),
        openLoopFigure(
            "unfinished", write: { $0.backlogMeasured ? String($0.unfinished) : "" },
            read: { row, o throws(PoolSizeError) in o.unfinished = try row.integer("unfinished") }),
        openLoopFigure(
            "dispatch_lag_p99_us", write: { CSVField.number($0.dispatchLagP99Microseconds, decimals: 1) },
            read: { row, o throws(PoolSizeError) in o.dispatchLagP99Microseconds = try row.number("dispatch_lag_p99_us")
            }),
    ]

    /// An open-loop figure's cell: written from the open loop's figures, empty for the closed loop.
    static func figure(_ record: TrialRecord, _ write: (OpenLoopFigures) -> String) -> String {
        switch record.loop {
        case .closed: return ""
        case let .open(figures): return write(figures)
        }
    }

    /// An open-loop figure: empty for a closed-loop trial, read only when the row has an arrival rate.
    static func openLoopFigure(
        _ name: String, signed: Bool = false, write: @escaping @Sendable (OpenLoopFigures) -> String,
        read: @escaping @Sendable (TrialsCSV.Row, inout OpenLoopFigures) throws(PoolSizeError) -> Void
    ) -> TrialsColumn {
        TrialsColumn(
            name, signed: signed, write: { figure($0, write) },
            read: { row, r throws(PoolSizeError) in
                try r.loop.updateFigures { figures throws(PoolSizeError) in try read(row, &figures) }
            })
    }
}

extension TrialsCSV.Row {
    /// The loop a row's arrival rate starts: the closed loop without one; with one, an open loop
    /// whose figures the columns after it fill in.
    func arrival(achieved: Double) throws(PoolSizeError) -> TrialRecord.Loop {
        guard let cell = text("arrival_rate_per_s"), !cell.isEmpty else { return .closed }
        let rate = try number("arrival_rate_per_s")
        guard rate > 0, rate.isFinite else {
            throw invalid("arrival_rate_per_s", cell, "a rate above 0 (or empty for a closed-loop trial)")
        }
        return .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: rate), offeredPerSecond: 0, achievedPerSecond: achieved,
                backlogMean: 0, backlogMax: 0, backlogGrowth: 0, stable: false))
    }
}
