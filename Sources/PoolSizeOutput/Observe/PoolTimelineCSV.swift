import PoolSizeObserve

/// `pools/<pool>.csv` of an observation's run directory: one row per slice of the observation
/// (a second; longer past an hour), where the pool's thread time went then. Units in the
/// column names, raw numbers in the cells; shares are fractions of the pool's thread time that
/// sum to 1, empty when none of its thread time fell in the slice. Pure.
package enum PoolTimelineCSV {
    /// The header's columns.
    package static let columns = [
        "pool", "start_s", "end_s", "threads", "cpu_cores",
        "running", "runnable", "blocked_io", "ambiguous", "idle", "samples",
    ]

    /// The pool's timeline.
    package static func serialize(_ pool: PoolEstimate) -> String {
        let name = CSVField.escape(pool.name)
        return columns.joined(separator: ",") + "\n"
            + pool.timeline.map { slice in
                let shares = ShareKind.allCases.map { kind in
                    slice.shares.map { CSVField.number($0[kind], decimals: 6) } ?? ""
                }
                let fields = [
                    name, CSVField.number(slice.startSeconds, decimals: 3),
                    CSVField.number(slice.endSeconds, decimals: 3),
                    CSVField.number(slice.meanThreads, decimals: 3), CSVField.number(slice.cpuCores, decimals: 6),
                ]
                return (fields + shares + [String(slice.samples)]).joined(separator: ",") + "\n"
            }.joined()
    }
}
