import PoolSizeAnalysis
import PoolSizeModel

extension ReportBuilder {
    /// A database sweep's own section: the server as recorded (its connection limit, the
    /// statement timeout), what the connection pool's rules of thumb gave against the
    /// recommendation, and what the database's backends did at each size with why the curve
    /// bends. Nothing for other sweeps.
    static func database(_ analysis: RunAnalysis, open: RunAnalysis.OpenLoop? = nil) -> [ReportDocument.Block] {
        var blocks: [ReportDocument.Block] = []
        if let database = analysis.database {
            var text =
                "The connections went to \(ReportInline.code(database.connection)), "
                + (database.serverIsLocal ? "a server on this machine" : "a server on another machine")
            if let limit = database.connectionLimit {
                text +=
                    ", which let the sweep hold \(limit) connection\(limit == 1 ? "" : "s") (\(ReportInline.code("max_connections")) less the superusers' reserve and other clients' connections): the sizes stayed within it"
            }
            text +=
                "; each connection set \(ReportInline.code("statement_timeout")) to \(UnitFormat.duration(database.statementTimeoutSeconds)), so a longer statement failed its task. "
                + (database.client == .async
                    ? "A size of N was N connections, each running one transaction after another, driven without blocking by one thread per core, as pgbench drives its connections, so that the client's threads took as little of the cores as they could."
                    : "Each pool thread held one connection and blocked on it, as a JDBC or psycopg pool does, so the pool's own threads were measured too.")
            blocks.append(.paragraph(text))
            let rules = analysis.ruleOfThumbSentences
            if !rules.isEmpty, let heading = analysis.ruleSet?.heading {
                blocks.append(
                    .paragraph(ReportInline.literal("The \(heading), \(analysis.rulesMeasured("the same")):")))
                blocks.append(.bullets(rules.map { ReportInline.literal($0) }))
            }
        }
        if open != nil {
            blocks += openLoopDatabase(analysis)
        } else if let curve = analysis.primary, let best = curve.recommendation {
            let (sizes, bend) = DatabaseProse.figures(
                analysis.run.records, combination: curve.combination,
                knee: best.kneeQueueCount ?? best.recommendedQueueCount, cores: analysis.run.plan?.cores)
            if !sizes.isEmpty {
                blocks += [
                    .paragraph(
                        "Over each trial's window: \(windowFigures) Repetitions pooled."
                    ),
                    .table(
                        header: DatabaseProse.header, rows: sizes.map(DatabaseProse.row),
                        numeric: DatabaseProse.header.indices.map { $0 != 1 }),
                ]
                if let bend {
                    let lead = DatabaseProse.lead(bend)
                    blocks.append(
                        .paragraph(
                            ReportInline.literal(
                                lead.prefix(1).uppercased() + lead.dropFirst() + DatabaseProse.sentence(bend))
                                + "."))
                }
            }
        }
        return blocks.isEmpty ? [] : [.heading(level: 2, text: "Database")] + blocks
    }

    /// An open loop's table: the closed loop's columns at each offered rate and size of the
    /// recommended (or only) configuration. Rates are not pooled: a size's waits at one rate say
    /// nothing of another.
    static func openLoopDatabase(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard let combination = analysis.primary?.combination else { return [] }
        let byRate = DatabaseProse.figuresByRate(
            analysis.run.records, combination: combination, cores: analysis.run.plan?.cores)
        guard !byRate.isEmpty else { return [] }
        return [
            .paragraph(
                "Over each trial's window, at each offered rate and size: \(windowFigures) Repetitions pooled."),
            .table(
                header: DatabaseProse.rateHeader, rows: DatabaseProse.rateRows(byRate),
                numeric: DatabaseProse.rateHeader.indices.map { $0 != 2 }),
        ]
    }

    /// What each trial's database figures are, said once for both loops' tables.
    static let windowFigures =
        "the transactions the server failed by SQLSTATE (failures, never throughput); the CPU of the sweep's backends per transaction, from /proc when the server runs on this machine; and what those backends were doing, sampled every 15 ms in `pg_stat_activity` from one connection of its own (Lock: a row or table lock; LWLock: the server's internal locks; IO: storage; Client: waiting for the client; Timeout: pg_sleep; CPU: running)."
}
