import PoolSizeModel

/// The one writer of space-aligned text tables (the console's summaries, `plan`, `calibrate`,
/// `bench-driver`): columns two spaces apart, each as wide as its widest cell, words aligned
/// left and numbers right. Every cell is escaped for the terminal (`TerminalText`), so a cell
/// is one line whatever a file or a command put in it. A row's trailing spaces are dropped,
/// and its leading ones too where the first column is aligned left (an empty first cell then
/// does not indent its row). Rows may be of different lengths.
package enum TextTable {
    /// `rows` aligned; `leftAligned` names the columns of words, the others are numbers.
    package static func render(_ rows: [[String]], leftAligned: Set<Int>) -> String {
        let rows = rows.map { $0.map(TerminalText.escape) }
        guard let columns = rows.map(\.count).max() else { return "" }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let line = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + pad : pad + cell
            }.joined(separator: "  ")
            let trailing = line.reversed().prefix { $0 == " " }.count
            let trimmed = line.dropLast(trailing)
            return String(leftAligned.contains(0) ? trimmed.drop { $0 == " " } : trimmed)
        }.joined(separator: "\n") + "\n"
    }
}
