import PoolSizeAnalysis
import PoolSizeModel

extension ReportBuilder {
    /// A `--postgres` sweep's own section: what the database's backends did at each size and
    /// why the curve bends; nothing for a run that watched no database.
    static func database(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard let curve = analysis.primary, let best = curve.recommendation else { return [] }
        let (sizes, bend) = DatabaseProse.figures(
            analysis.run.records, combination: curve.combination,
            knee: best.kneeQueueCount ?? best.recommendedQueueCount)
        guard !sizes.isEmpty else { return [] }
        var blocks: [ReportDocument.Block] = [
            .heading(level: 2, text: "Database"),
            .paragraph(
                "Over each trial's window: the transactions the server failed by SQLSTATE (failures, never throughput); the CPU of the sweep's backends per transaction, from /proc when the server runs on this machine; and what those backends were doing, sampled every 15 ms in `pg_stat_activity` from one connection of its own (Lock: a row or table lock; LWLock: the server's internal locks; IO: storage; Client: waiting for the client; Timeout: pg_sleep; CPU: running). Repetitions pooled."
            ),
            .table(
                header: DatabaseProse.header, rows: sizes.map(DatabaseProse.row),
                numeric: DatabaseProse.header.indices.map { $0 != 1 }),
        ]
        if let bend {
            let lead = DatabaseProse.lead(bend)
            blocks.append(
                .paragraph(
                    ReportInline.literal(lead.prefix(1).uppercased() + lead.dropFirst() + DatabaseProse.sentence(bend))
                        + "."))
        }
        return blocks
    }
}
