import PoolSizeAnalysis
import PoolSizeModel

extension GitHubBenchmarkExport {
    /// A `--postgres` run's server side, smaller being better: per size, the sweep's backends'
    /// CPU per transaction (when the server runs on this machine) and the transactions the server
    /// failed, by SQLSTATE in `extra`; nothing for any other run.
    static func databaseEntries(_ analysis: RunAnalysis, combination: Combination, prefix: String) -> [Entry] {
        let sizes = DatabaseAtSize.pooled(
            analysis.run.records.valid.filter { $0.combination == combination }, cores: analysis.run.plan?.cores)
        var entries: [Entry] = []
        for size in sizes {
            let waits = WaitClass.allCases.filter { size.figures.share($0) > 0 }
                .map { "\($0.label) \(DatabaseProse.percent(size.figures.share($0)))" }.joined(separator: ", ")
            if let cpu = size.backendCPUMicrosecondsPerTransaction {
                entries.append(
                    Entry(
                        name: "\(prefix) N=\(size.size) server CPU per transaction", unit: "us", value: cpu,
                        range: nil, extra: waits.isEmpty ? nil : "backends' samples: \(waits)"))
            }
            let errors = size.figures.failedTransactions
            entries.append(
                Entry(
                    name: "\(prefix) N=\(size.size) database errors", unit: "transactions", value: Double(errors),
                    range: nil, extra: errors == 0 ? nil : "by SQLSTATE: \(size.figures.errorsText)"))
        }
        return entries
    }
}
