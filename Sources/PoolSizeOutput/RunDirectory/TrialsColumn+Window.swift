import PoolSizeModel

extension TrialsColumn {
    /// How a trial's window ended and how well its throughput was known (`TrialRecord.windowEnd`,
    /// `throughputMargin`), last in the file: a file written before them reads as trials of
    /// their planned length with no margin.
    static let windowColumns: [TrialsColumn] = [
        TrialsColumn(
            "window_end", write: { $0.windowEnd.rawValue },
            read: { row, r throws(PoolSizeError) in
                guard let cell = row.text("window_end"), !cell.isEmpty else { return }
                guard let end = TrialRecord.WindowEnd(rawValue: cell) else {
                    throw row.invalid("window_end", cell, "planned, known or longest")
                }
                r.windowEnd = end
            }),
        {
            let cell = optionalNumber("throughput_margin", \TrialRecord.throughputMargin, decimals: 4)
            return TrialsColumn("throughput_margin", write: cell.write, read: cell.read)
        }(),
    ]
}
