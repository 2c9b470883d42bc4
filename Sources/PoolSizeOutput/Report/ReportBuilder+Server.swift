import PoolSizeAnalysis
import PoolSizeModel

extension ReportBuilder {
    /// A server sweep's own section: the server as started, what each size cost it, and what
    /// the rules of thumb gave against the recommendation. Nothing for poolsize's own pools.
    static func server(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard let server = analysis.server else { return [] }
        var blocks: [ReportDocument.Block] = [
            .heading(level: 2, text: "Server"),
            .paragraph(how(server, load: analysis.driverLoad(connections: server.connections))),
        ]
        let rows = analysis.serverRows.map { row in
            [
                String(row.size), UnitFormat.significant(row.throughputPerSecond), UnitFormat.significant(row.cores),
                UnitFormat.significant(row.cpuMicrosecondsPerRequest), String(row.threads),
                UnitFormat.memory(row.rssKilobytes * 1024),
                // A load tool replaced the driver: there is no driver CPU to show.
                server.loadTool == nil ? UnitFormat.significant(row.driverCPUMicrosecondsPerRequest) : "–",
            ]
        }
        if !rows.isEmpty {
            blocks.append(
                .table(
                    header: [
                        "size", "requests/s", "server cores busy", "server CPU µs/request", "threads", "memory (RSS)",
                        "driver CPU µs/request",
                    ],
                    rows: rows, numeric: [true, true, true, true, true, true, true]))
        }
        let rules = analysis.ruleOfThumbSentences
        if !rules.isEmpty {
            blocks.append(.paragraph("The rules people set instead, \(analysis.rulesMeasured("the same")):"))
            blocks.append(.bullets(rules.map { ReportInline.literal($0) }))
        }
        return blocks
    }

    /// How the server was sized and loaded, as its plan recorded it; `load` says how the
    /// driver loaded it (`64 requests in flight`).
    static func how(_ server: ServerSetup, load: String) -> String {
        var text: String
        switch server.sizing {
        case .restart: text = "Started at each size as \(ReportInline.code(server.command))"
        case let .resize(command, settle):
            text =
                "Started once as \(ReportInline.code(server.command)) and set to each size by \(ReportInline.code(command)), given \(UnitFormat.duration(settle)) to settle"
        }
        if let signal = server.stopSignal { text += ", stopped with SIG\(signal)" }
        if let tool = server.loadTool {
            text +=
                "; loaded at each size by \(ReportInline.code(tool)) (its own figures), the server ready at \(ReportInline.code(server.url))"
        } else {
            text +=
                "; loaded at \(ReportInline.code(server.url)) with \(load) from one event-driven thread"
        }
        return text + ". The figures below are its processes' (/proc)"
            + (server.loadTool == nil ? ", the load driver's CPU beside them." : ".")
    }
}
