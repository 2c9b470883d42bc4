import Foundation
import PoolSizeAnalysis
import PoolSizeModel

/// A chain's console summary and summary.txt: every cell's figures in a table, then the answer.
package enum ChainSummary {
    package static func render(
        _ cells: [ChainCellFigures], space: KnobSpace, answer: ChainAnswer?, limit: ConnectionLimit?,
        demand: ConnectionDemand?
    ) -> String {
        let header = space.names + ["connections", "throughput/s", "p99 ms", "trials", "status"]
        var rows = [header]
        for figures in cells {
            var row = space.names.map { String(figures.cell[$0]) }
            row.append(figures.connections.map(String.init) ?? "-")
            row.append(figures.throughputPerSecond.map { String(format: "%.1f", $0) } ?? "-")
            row.append(figures.p99Microseconds.map { String(format: "%.1f", $0 / 1_000) } ?? "-")
            row.append(String(figures.trials))
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
        return text
    }
}
