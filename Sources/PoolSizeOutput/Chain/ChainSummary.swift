import Foundation
import PoolSizeAnalysis
import PoolSizeModel

/// A chain's console summary and summary.txt: every cell's figures in a table, then the answer.
package enum ChainSummary {
    package static func render(
        _ cells: [ChainCellFigures], space: KnobSpace, answer: ChainAnswer?, limit: ConnectionLimit?,
        demand: ConnectionDemand?, rules: [ChainRule] = [], cores: Int = 0
    ) -> String {
        // The database's columns only when it was watched.
        let watched = cells.contains { $0.database != nil }
        let header =
            space.names + ["connections", "throughput/s", "p99 ms", "trials"]
            + (watched ? ["db peak", "db at work"] : []) + ["status"]
        var rows = [header]
        for figures in cells {
            var row = space.names.map { String(figures.cell[$0]) }
            row.append(figures.connections.map(String.init) ?? "-")
            row.append(figures.throughputPerSecond.map { String(format: "%.1f", $0) } ?? "-")
            row.append(figures.p99Microseconds.map { String(format: "%.1f", $0 / 1_000) } ?? "-")
            row.append(String(figures.trials))
            if watched {
                row.append(figures.database?.peakConnections.map(String.init) ?? "-")
                row.append(figures.database.flatMap(Self.atWork) ?? "-")
            }
            var status = figures.statusWord
            if figures.cell == answer?.recommended.cell { status += "  ← recommended" }
            if figures.cell == answer?.best.cell, figures.cell != answer?.recommended.cell { status += "  (best)" }
            row.append(status)
            rows.append(row)
        }
        var text = TextTable.render(rows, leftAligned: [header.count - 1])
        if let limit, let demand {
            text +=
                "connections: \(demand.written) per cell; the database allows \(limit.allowed) (\(limit.explanation))\n"
        }
        for figures in cells {
            if case .excluded(let reason) = figures.status { text += "excluded: \(reason)\n" }
        }
        // A failed cell's reason is the trial's, which names no cell: the cell goes first.
        for figures in cells {
            if case .failed(let reason) = figures.status {
                text += "failed: \(figures.cell): \(TerminalText.escape(reason))\n"
            }
        }
        guard let answer else {
            return text + "no recommendation: no cell has a valid trial\n"
        }
        let throughput = String(format: "%.1f", answer.recommended.throughputPerSecond ?? 0)
        text += "recommended sizes: \(answer.recommended.cell)  (\(throughput)/s"
        if answer.recommended.cell != answer.best.cell {
            text += ", \(Int((answer.shareOfBest * 100).rounded()))% of the best cell \(answer.best.cell)"
        } else {
            text += ", the best cell"
        }
        text += ")\n"
        text += "binding layer: \(answer.bindingSentence)\n"
        if let database = answer.recommended.database, let line = connectionsByState(database) {
            text += "database at the answer: \(line)\n"
        }
        if !rules.isEmpty {
            text +=
                "rules of thumb on \(cores) core\(cores == 1 ? "" : "s"), each setting one knob, the others at the answer's:\n"
            for rule in rules { text += "  \(ruleLine(rule, cells: cells, best: answer.best))\n" }
        }
        return text
    }

    /// `2 × cores + 1: workers=5 → workers=5 threads=4 pool=4  412.0/s, 72% of the best`.
    static func ruleLine(_ rule: ChainRule, cells: [ChainCellFigures], best: ChainCellFigures) -> String {
        let head = "\(rule.name): \(rule.knob)=\(rule.value) → "
        guard let cell = rule.cell else { return head + (rule.note ?? "no cell") }
        let note = rule.note.map { " (\($0))" } ?? ""
        let figures = cells.first { $0.cell == cell }
        guard let throughput = figures?.throughputPerSecond else {
            let why =
                figures?.reason.map { "\(figures?.statusWord ?? ""): \(TerminalText.escape($0))" } ?? "not measured"
            return head + "\(cell)\(note): \(why)"
        }
        let share = best.throughputPerSecond.map { $0 > 0 ? throughput / $0 : 0 } ?? 0
        let verdict = cell == best.cell ? "the best cell" : "\(Int((share * 100).rounded()))% of the best"
        return head + "\(cell)\(note)  \(String(format: "%.1f", throughput))/s, \(verdict)"
    }

    /// What the backends at work did most, with its share of their samples: `Lock 71%`; nil
    /// when no backend was at work.
    static func atWork(_ figures: DatabaseFigures) -> String? {
        guard let top = figures.topWorkingWait else { return nil }
        return "\(top.label) \(Int((figures.workingShare(top) * 100).rounded()))%"
    }

    /// The backends by what they did, as mean connections over the snapshots, most first:
    /// `8 connections at most; on average 3.1 on Lock, 0.9 on CPU, 4.0 idle or waiting for the
    /// client`; nil without snapshots.
    static func connectionsByState(_ figures: DatabaseFigures) -> String? {
        guard figures.snapshots > 0 else { return nil }
        let classes = WaitClass.allCases.filter { figures.meanConnections($0) >= 0.05 }
            .sorted { figures.meanConnections($0) > figures.meanConnections($1) }
        let means = classes.map { kind in
            let mean = String(format: "%.1f", figures.meanConnections(kind))
            return kind == .client ? "\(mean) idle or waiting for the client" : "\(mean) on \(kind.label)"
        }
        let peak = figures.peakConnections.map { "\($0) connection\($0 == 1 ? "" : "s") at most; " } ?? ""
        return peak + (means.isEmpty ? "no backend seen" : "on average " + means.joined(separator: ", "))
    }
}
