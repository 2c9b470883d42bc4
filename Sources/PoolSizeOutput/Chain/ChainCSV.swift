import Foundation
import PoolSizeModel

/// chain.csv: a row per cell of a chain, measured or not: a column per knob, the connections
/// the cell opens at most, and the figures of its valid trials.
package enum ChainCSV {
    /// The columns after the knobs'.
    package static let figureColumns = [
        "connections", "status", "trials", "throughput_per_s", "p99_latency_us", "errors", "db_peak_connections",
        "db_wait", "db_wait_share", "row", "reason",
    ]

    package static func serialize(_ cells: [ChainCellFigures], knobs: [String]) -> String {
        var lines = [(knobs + figureColumns).map(CSVField.escape).joined(separator: ",")]
        for figures in cells {
            let knobCells = knobs.map { String(figures.cell[$0]) }
            let database = figures.database
            let wait = database?.topWorkingWait
            let waitShare = wait.flatMap { kind in database.map { String(format: "%.3f", $0.workingShare(kind)) } }
            let figureCells: [String] = [
                figures.connections.map(String.init) ?? "",
                figures.statusWord,
                String(figures.trials),
                figures.throughputPerSecond.map { String(format: "%.2f", $0) } ?? "",
                figures.p99Microseconds.map { String(format: "%.1f", $0) } ?? "",
                String(figures.errors),
                database?.peakConnections.map(String.init) ?? "",
                wait?.rawValue ?? "",
                waitShare ?? "",
                CSVField.escape(figures.row),
                CSVField.escape(figures.reason ?? ""),
            ]
            lines.append((knobCells + figureCells).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
