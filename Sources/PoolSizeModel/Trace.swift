import CSV
import Foundation
import PoolSizeStats

/// A recorded trace: one row per observed request with its CPU time and its wait, as exported
/// from an APM or a service's own logs. A sweep draws its tasks from the rows (seeded), so it
/// sees the real distribution, not its mean.
package struct Trace: Equatable, Sendable {
    /// The file it was read from.
    package var path: String
    /// CPU microseconds of each row.
    package var cpuMicroseconds: [Double]
    /// Wait microseconds of each row, paired with `cpuMicroseconds`.
    package var waitMicroseconds: [Double]

    /// A trace of the given rows.
    package init(path: String, cpuMicroseconds: [Double], waitMicroseconds: [Double]) {
        self.path = path
        self.cpuMicroseconds = cpuMicroseconds
        self.waitMicroseconds = waitMicroseconds
    }

    /// Rows in the trace.
    package var count: Int { cpuMicroseconds.count }

    /// Σ wait / Σ CPU over the rows: the W/C the formula would use.
    package var waitCPURatio: Double { waitMicroseconds.reduce(0, +) / cpuMicroseconds.reduce(0, +) }

    /// The trace as a spec of its means, named after its file: what machine.json records and
    /// what plans the trials' lengths.
    package func spec(trialMilliseconds: Int = 1000) -> WorkloadSpec {
        let name = "trace-" + URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return WorkloadSpec(
            name: name, description: "recorded trace \(URL(fileURLWithPath: path).lastPathComponent): \(summary)",
            cpuMicroseconds: cpuMicroseconds.reduce(0, +) / Double(count),
            waitMicroseconds: waitMicroseconds.reduce(0, +) / Double(count),
            trialMilliseconds: trialMilliseconds)
    }

    /// `200 rows; W/C 8.02; C p50 1.00 ms, p99 1.19 ms; W p50 8.01 ms, p99 8.97 ms`.
    package var summary: String {
        func ms(_ values: [Double], _ p: Double) -> String {
            UnitFormat.duration(microseconds: percentile(values, p) ?? .nan)
        }
        return
            "\(count) rows; W/C \(UnitFormat.significant(waitCPURatio)) (Σ W / Σ C); C p50 \(ms(cpuMicroseconds, 50)), p99 \(ms(cpuMicroseconds, 99)); W p50 \(ms(waitMicroseconds, 50)), p99 \(ms(waitMicroseconds, 99))"
    }

    /// Reads a trace file: a header naming `cpu_us` and `wait_us` (other columns ignored), then
    /// one row per request. Errors name the file, the line and the column (exit 65).
    package static func load(path: String) throws(PoolSizeError) -> Trace {
        let hint =
            "\(PoolSizeError.Parameter.trace.mention) takes a CSV file with a header and the columns cpu_us,wait_us"
        var status = stat()
        guard stat(path, &status) == 0 else { throw .inputNotFound(path: path, hint: hint) }
        // A trace is read when the sweep is planned and again when it runs: a pipe, a FIFO or a
        // terminal (/dev/stdin) would block or give nothing the second time, and a directory
        // has no rows.
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a directory"
                case S_IFIFO: "a pipe or FIFO"
                case S_IFCHR: "a character device (a terminal or /dev/stdin)"
                default: "not a regular file"
                }
            throw .invalidParameter(
                .trace,
                message:
                    "\(path) is \(kind); give a regular file (the trace is read twice: to plan the sweep and to run it)"
            )
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .invalidInput(path: path, message: "cannot be read as UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// The longest time a row may give, µs (10 minutes, as a spec's `wait_us`): a task must fit
    /// in a trial, and larger values would overflow the nanosecond clocks they are added to.
    package static let maximumMicroseconds = 600_000_000.0

    /// The trace in `text`; `path` names it in errors.
    package static func parse(_ text: String, path: String) throws(PoolSizeError) -> Trace {
        let reader: CSVReader
        do { reader = try CSVReader(string: text, hasHeaderRow: true) } catch {
            // The parser's message can quote the rest of the file (an unterminated quote): one line, cut.
            let reason = TerminalText.excerpt(String(describing: error), limit: 200)
            throw .invalidInput(path: path, message: "not CSV (\(reason)); expected a header with cpu_us,wait_us")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
        // Which of two same-named columns is the one meant cannot be told.
        for name in ["cpu_us", "wait_us"] where header.filter({ $0 == name }).count > 1 {
            throw .invalidInput(
                path: path,
                message: "line 1: column '\(name)' appears \(header.filter { $0 == name }.count) times; keep one")
        }
        guard let cpuColumn = header.firstIndex(of: "cpu_us"), let waitColumn = header.firstIndex(of: "wait_us") else {
            let missing = header.contains("cpu_us") ? "wait_us" : "cpu_us"
            throw .invalidInput(
                path: path,
                message:
                    "line 1: no column '\(missing)'; the header must name cpu_us and wait_us (microseconds per request), e.g. cpu_us,wait_us"
            )
        }
        var cpu: [Double] = [], wait: [Double] = []
        var line = 1
        while let row = reader.next() {
            line += 1
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            func value(_ column: Int, _ name: String) throws(PoolSizeError) -> Double {
                let cell = column < row.count ? row[column].trimmingCharacters(in: .whitespaces) : ""
                guard let number = FiniteNumber.parse(cell) else {
                    throw .invalidInput(
                        path: path,
                        message:
                            "line \(line), column '\(name)': '\(TerminalText.excerpt(cell))' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
                    )
                }
                guard number >= 0 else {
                    throw .invalidInput(
                        path: path,
                        message:
                            "line \(line), column '\(name)': \(TerminalText.excerpt(cell)) is negative; times are ≥ 0")
                }
                guard number <= maximumMicroseconds else {
                    throw .invalidInput(
                        path: path,
                        message:
                            "line \(line), column '\(name)': \(TerminalText.excerpt(cell)) µs is more than 10 minutes, longer than a task a sweep can time; times are in microseconds"
                    )
                }
                return number + 0
            }
            cpu.append(try value(cpuColumn, "cpu_us"))
            wait.append(try value(waitColumn, "wait_us"))
        }
        if let error = reader.error {
            throw .invalidInput(
                path: path,
                message:
                    "line \(line): not CSV (\(TerminalText.excerpt(String(describing: error), limit: 200))); expected a header with cpu_us,wait_us"
            )
        }
        guard !cpu.isEmpty else {
            throw .invalidInput(path: path, message: "has a header but no rows; add one row per observed request")
        }
        guard cpu.contains(where: { $0 > 0 }) else {
            throw .invalidInput(
                path: path,
                message:
                    "column 'cpu_us' is 0 on every row; a request that burns no CPU has no W/C (is the column in microseconds?)"
            )
        }
        return Trace(path: path, cpuMicroseconds: cpu, waitMicroseconds: wait)
    }
}
