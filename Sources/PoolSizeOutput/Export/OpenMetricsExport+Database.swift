import PoolSizeAnalysis
import PoolSizeModel

extension OpenMetricsExport {
    /// A `--postgres` run's database per size (`DatabaseAtSize`, repetitions pooled): the share
    /// of the backends' samples in each wait class, failed transactions by SQLSTATE and the
    /// backends' CPU per transaction; no family for a run that watched no database.
    static func databaseFamilies(_ analysis: RunAnalysis, runLabels: [(String, String)]) -> [Family] {
        var waits = Family(
            name: "poolsize_database_wait_ratio",
            help: "Share of the sweep's backends' pg_stat_activity samples in each wait class, 0 to 1.",
            unit: "ratio")
        var errors = Family(
            name: "poolsize_database_failed_transactions",
            help: "Transactions the server failed in the trials' windows, by SQLSTATE, repetitions summed.")
        var cpu = Family(
            name: "poolsize_database_backend_cpu_seconds_per_transaction",
            help: "CPU of the sweep's backends per transaction, when the server runs on this machine.",
            unit: "seconds")
        for curve in analysis.curves {
            let labels = labels(runLabels, curve.combination)
            let sizes = DatabaseAtSize.pooled(
                analysis.run.records.valid.filter { $0.combination == curve.combination },
                cores: analysis.run.plan?.cores)
            for size in sizes {
                let sized = labels + [("size", String(size.size))]
                if size.figures.sampleCount > 0 {
                    for kind in WaitClass.allCases {
                        waits.samples.append((sized + [("class", kind.rawValue)], size.figures.share(kind)))
                    }
                }
                for (state, count) in size.figures.errorsBySQLState.sorted(by: { $0.key < $1.key }) {
                    errors.samples.append((sized + [("sqlstate", state)], Double(count)))
                }
                if let perTransaction = size.backendCPUMicrosecondsPerTransaction {
                    cpu.samples.append((sized, perTransaction / 1e6))
                }
            }
        }
        return [waits, errors, cpu]
    }
}
