import CSV
import Foundation
import PoolSizeModel

/// A CSV file as a header and rows of text cells (RFC 4180 parsing by yaslab/CSV.swift), with
/// numeric column access that reports the row and column of a bad cell.
package struct CSVTable: Sendable {
    package let path: String
    package let header: [String]
    package let rows: [[String]]

    package init(text: String, path: String) throws(PoolSizeError) {
        self.path = path
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: true)
            var rows: [[String]] = []
            while let row = reader.next() { rows.append(row) }
            header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
            self.rows = rows
        } catch {
            throw .invalidInput(
                path: path,
                message:
                    "not a readable CSV file (\(TerminalText.excerpt(String(describing: error), limit: 200))); expected a header row and comma-separated values"
            )
        }
        if header.isEmpty { throw .invalidInput(path: path, message: "empty file; expected a header row") }
    }

    package static func load(path: String) throws(PoolSizeError) -> CSVTable {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .inputNotFound(
                path: path, hint: "pass a trials.csv, summary.csv or any CSV with a concurrency and a throughput column"
            )
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .invalidInput(path: path, message: "cannot be read as UTF-8 text")
        }
        return try CSVTable(text: text, path: path)
    }

    package func hasColumn(_ name: String) -> Bool { header.contains(name) }

    /// The index of a column, or an error listing the columns the file has.
    package func column(_ name: String, flag: String) throws(PoolSizeError) -> Int {
        guard let index = header.firstIndex(of: name) else {
            throw .invalidInput(
                path: path,
                message:
                    "no column '\(TerminalText.excerpt(name))' (\(flag)); the file has: \(TerminalText.excerpt(header.joined(separator: ", "), limit: 400))"
            )
        }
        // Which of two same-named columns is the one meant cannot be told.
        guard header.filter({ $0 == name }).count == 1 else {
            throw .invalidInput(
                path: path,
                message:
                    "line 1: column '\(TerminalText.excerpt(name))' appears \(header.filter { $0 == name }.count) times; keep one, or name another with \(flag)"
            )
        }
        return index
    }

    /// The column as measured amounts (`FiniteNumber.quantity`: decimal, finite, not negative;
    /// with `signed`, negative too); any other cell is an error naming its line.
    package func numbers(_ index: Int, signed: Bool = false) throws(PoolSizeError) -> [Double] {
        var values: [Double] = []
        for (offset, row) in rows.enumerated() {
            let cell = index < row.count ? row[index].trimmingCharacters(in: .whitespaces) : ""
            guard let value = signed ? FiniteNumber.parse(cell) : FiniteNumber.quantity(cell) else {
                throw .invalidInput(
                    path: path,
                    message:
                        "line \(offset + 2), column '\(header[index])': '\(TerminalText.excerpt(cell))' is not a \(signed ? "finite number" : "number ≥ 0") (decimals, e.g. 12 or 1.5e3)"
                )
            }
            values.append(value)
        }
        return values
    }

    package func strings(_ index: Int) -> [String] { rows.map { index < $0.count ? $0[index] : "" } }
}
