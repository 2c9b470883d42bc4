import Foundation
import PoolSizeModel

/// chain.csv: a row per cell of a chain, measured or not: a column per knob, the connections
/// the cell opens at most, and the figures of its valid trials.
package enum ChainCSV {
    /// The columns after the knobs'.
    package static let figureColumns = [
        "connections", "status", "trials", "throughput_per_s", "p99_latency_us", "errors", "row", "reason",
    ]

    package static func serialize(_ cells: [ChainCellFigures], knobs: [String]) -> String {
        var lines = [(knobs + figureColumns).map(CSVField.escape).joined(separator: ",")]
        for figures in cells {
            let knobCells = knobs.map { String(figures.cell[$0]) }
            let figureCells = [
                figures.connections.map(String.init) ?? "",
                figures.statusWord,
                String(figures.trials),
                figures.throughputPerSecond.map { String(format: "%.2f", $0) } ?? "",
                figures.p99Microseconds.map { String(format: "%.1f", $0) } ?? "",
                String(figures.errors),
                CSVField.escape(figures.row),
                CSVField.escape(figures.reason ?? ""),
            ]
            lines.append((knobCells + figureCells).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
