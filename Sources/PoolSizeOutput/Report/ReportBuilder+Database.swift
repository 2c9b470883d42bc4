import PoolSizeAnalysis
import PoolSizeModel

extension ReportBuilder {
    /// A database sweep's own section: the server as recorded, its connection limit and the
    /// statement timeout, and what the connection pool's rules of thumb gave against the
    /// recommendation. Nothing for other sweeps.
    static func database(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard let database = analysis.database else { return [] }
        var text =
            "Each pool thread held one connection to \(ReportInline.code(database.connection)), "
            + (database.serverIsLocal ? "a server on this machine" : "a server on another machine")
        if let limit = database.connectionLimit {
            text +=
                ", which let the sweep hold \(limit) connection\(limit == 1 ? "" : "s") (\(ReportInline.code("max_connections")) less the superusers' reserve and other clients' connections): the sizes stayed within it"
        }
        text +=
            "; each connection set \(ReportInline.code("statement_timeout")) to \(UnitFormat.duration(database.statementTimeoutSeconds)), so a longer statement failed its task."
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Database"), .paragraph(text)]
        let rules = analysis.ruleOfThumbSentences
        if !rules.isEmpty, let heading = analysis.ruleSet?.heading {
            blocks.append(.paragraph(ReportInline.literal("The \(heading), measured in the same run:")))
            blocks.append(.bullets(rules.map { ReportInline.literal($0) }))
        }
        return blocks
    }
}
