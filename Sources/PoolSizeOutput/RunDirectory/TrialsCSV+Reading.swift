import CSV
import PoolSizeModel

/// Reading `trials.csv` back into records: the inverse of `row(_:)`. Columns are found by
/// name, so a file with extra columns or in another order loads, but every column the writer
/// writes must be there. Only the configuration and `throughput_per_s` must have a value; the
/// other cells are empty where a figure does not apply (an open loop's on a closed-loop trial).
extension TrialsCSV {
    static let required = columns.filter(\.isRequired).map(\.name)
    static let signed = Set(columns.filter(\.isSigned).map(\.name))
    /// Columns a later poolsize added: a file written before them loads, their cells read as empty.
    static let addedColumns: Set<String> = Set(
        [driverColumn.name] + TrialsColumn.serverColumns.map(\.name) + TrialsColumn.databaseColumns.map(\.name)
            + TrialsColumn.windowColumns.map(\.name))

    /// - Parameters:
    ///   - path: names the file in error messages.
    ///   - dropped: told the line number of a torn last line, which is left out: a sweep
    ///     killed mid-write (power cut, SIGKILL) leaves its last row cut short and no final
    ///     line break. Any other damaged row is an error naming its line.
    package static func parse(_ text: String, path: String, dropped: ((Int) -> Void)? = nil) throws(PoolSizeError)
        -> [TrialRecord]
    {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidInput(
                path: path, message: "empty file; expected a header row naming the columns in results/README.md")
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw .invalidInput(path: path, message: "not CSV: \(error)")
        }
        guard let header = reader.headerRow, !header.isEmpty, header != [""] else {
            throw .invalidInput(
                path: path, message: "empty file; expected a header row naming the columns in results/README.md")
        }
        if let missing = columnNames.first(where: { !header.contains($0) && !addedColumns.contains($0) }) {
            throw .invalidInput(
                path: path,
                message: "column '\(missing)' missing from the header; expected the columns in results/README.md")
        }
        var seen = Set<String>()
        if let twice = header.first(where: { !seen.insert($0).inserted }) {
            throw .invalidInput(
                path: path,
                message: "column '\(twice)' appears twice in the header; a file poolsize writes names each column once")
        }
        let index = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [(line: Int, cells: [String])] = []
        var line = 1
        while let row = reader.next() {
            line += 1
            if row.count == 1 && row[0].isEmpty { continue }
            rows.append((line, row))
        }
        if let error = reader.error { throw .invalidInput(path: path, message: "line \(line): \(error)") }
        let torn = !text.hasSuffix("\n") && !text.hasSuffix("\r")
        var records: [TrialRecord] = []
        for (offset, row) in rows.enumerated() {
            let isLast = offset == rows.count - 1
            do throws(PoolSizeError) {
                guard row.cells.count == header.count else {
                    throw .invalidInput(
                        path: path,
                        message:
                            "line \(row.line) has \(row.cells.count) fields where the header has \(header.count); the file is damaged (an edit, or a write cut short)"
                    )
                }
                records.append(try Row(cells: row.cells, index: index, path: path, line: row.line).record())
            } catch {
                guard isLast && torn else { throw error }
                dropped?(row.line)
            }
        }
        return records
    }

    struct Row {
        let cells: [String]
        let index: [String: Int]
        let path: String
        let line: Int

        func text(_ column: String) -> String? {
            guard let i = index[column], i < cells.count else { return nil }
            return cells[i]
        }

        /// - Parameter bounded: refuse 2^53 or more here; `integer` says "a whole number" instead.
        func number(_ column: String, bounded: Bool = true) throws(PoolSizeError) -> Double {
            // An optional cell may be empty (a figure that does not apply); a required one may not:
            // an empty throughput read as 0 would be a false dip in the curve.
            guard let cell = text(column), !cell.isEmpty else {
                if TrialsCSV.required.contains(column) { throw invalid(column, "", "a number (the cell is empty)") }
                return 0
            }
            // `nan` is how the writer records a figure that is undefined (W/C of a task that used
            // no CPU); readers leave it out. Throughput never is: it is the curve.
            if cell == "nan", !TrialsCSV.required.contains(column) { return .nan }
            // The one rule of every reader (FiniteNumber): decimal and finite, and not negative
            // but for the figures that can be.
            guard let value = FiniteNumber.parse(cell) else { throw invalid(column, cell, "a finite decimal number") }
            guard value >= 0 || TrialsCSV.signed.contains(column) else { throw invalid(column, cell, "a number ≥ 0") }
            // No trial measures 2^53 of anything (tasks a second, µs, bytes): such a cell was
            // edited, and every reader would print it as a figure.
            guard !bounded || abs(value) < Double(FiniteNumber.wholeLimit) else {
                throw invalid(column, cell, "a figure a trial can measure (below 2^53)")
            }
            return value + 0
        }

        func integer(_ column: String) throws(PoolSizeError) -> Int {
            let value = try number(column, bounded: false)
            // |value| < 2^53 keeps Int(value) exact and in range (a huge number must not trap).
            guard value.isFinite, value == value.rounded(), abs(value) < Double(FiniteNumber.wholeLimit) else {
                throw invalid(column, text(column) ?? "", "a whole number")
            }
            return Int(value)
        }

        /// A pool size of at least 1.
        func poolSize() throws(PoolSizeError) -> Int {
            let size = try integer("pool_size")
            guard size >= 1 else { throw invalid("pool_size", text("pool_size") ?? "", "a pool size of at least 1") }
            return size
        }

        func value<T: RawRepresentable>(_ column: String, as _: T.Type) throws(PoolSizeError) -> T
        where T.RawValue == String, T: CaseIterable {
            let cell = text(column) ?? ""
            guard let value = T(rawValue: cell) else {
                throw invalid(column, cell, "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }

        /// `size_steps`: `seconds:size:throughput_per_s` triples separated by spaces, each
        /// number under the one rule (`FiniteNumber`); empty or absent for a fixed pool.
        func sizeSteps() throws(PoolSizeError) -> [SizeStep] {
            guard let cell = text("size_steps"), !cell.isEmpty else { return [] }
            var steps: [SizeStep] = []
            for entry in cell.split(separator: " ") {
                let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3, let seconds = FiniteNumber.parse(parts[0]), seconds >= 0,
                    let size = Int(parts[1]), size >= 1,
                    let throughput = FiniteNumber.parse(parts[2]), throughput >= 0
                else {
                    throw invalid("size_steps", String(entry), "seconds:size:throughput_per_s (as 0.104:32:1865.2)")
                }
                steps.append(SizeStep(seconds: seconds, size: size, throughputPerSecond: throughput))
            }
            return steps
        }

        func invalid(_ column: String, _ cell: String, _ expected: String) -> PoolSizeError {
            .invalidInput(
                path: path,
                message: "line \(line), column '\(column)': '\(TerminalText.excerpt(cell))' is not \(expected)")
        }

        /// `integrity`, `n/a` when the column is absent (runs before primitives were checked).
        func integrity() throws(PoolSizeError) -> Integrity {
            guard let cell = text("integrity"), !cell.isEmpty else { return .notApplicable }
            return try value("integrity", as: Integrity.self)
        }

        func percentiles(_ prefix: String) throws(PoolSizeError) -> LatencyPercentiles {
            LatencyPercentiles(
                p50: try number("\(prefix)_p50_us"), p90: try number("\(prefix)_p90_us"),
                p99: try number("\(prefix)_p99_us"),
                p999: try number("\(prefix)_p999_us"), max: try number("\(prefix)_max_us"))
        }

        /// `stable`: yes or no.
        func stable() throws(PoolSizeError) -> Bool {
            switch text("stable") ?? "" {
            case "yes": return true
            case "no": return false
            case let other: throw invalid("stable", other, "yes or no")
            }
        }

        /// The record this row describes, read column by column in `TrialsCSV.columns`' order.
        func record() throws(PoolSizeError) -> TrialRecord {
            var record = TrialRecord(
                runID: "", workload: "", pool: .queuePool, qos: .default, primitive: .none, poolSize: 1, repetition: 0,
                tasks: 0, wallSeconds: 0, throughputPerSecond: 0, cpuMicrosecondsPerTask: 0, waitMicrosecondsPerTask: 0,
                waitCPURatio: 0, utilization: 0, peakConcurrency: 0, threads: 0, effectiveNice: 0,
                integrity: .notApplicable)
            for column in TrialsCSV.columns { try column.read(self, &record) }
            return record
        }
    }
}
