import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput
import PoolSizeAnalysis

/// `poolsize fit FILE.csv`: refits a sweep's CSV, or anyone's concurrency/throughput data.
struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Fit the Universal Scalability Law and find the knee in a CSV of concurrency and throughput.",
        discussion:
            "Reads trials.csv or summary.csv from a sweep (one fit per pool/qos/primitive combination, and per arrival rate for an open-loop run), or any CSV with a concurrency column and a throughput column named by --x and --y."
    )

    @Argument(help: "CSV file: trials.csv, summary.csv, or your own data.", completion: .file(extensions: ["csv"]))
    var file: String

    @Option(help: "Concurrency column (default: pool_size, concurrency or threads).")
    var x: String?

    @Option(help: "Throughput column (default: throughput_per_s, throughput_mean_per_s or throughput).")
    var y: String?

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    @Option(help: "The knee is the smallest concurrency within this share of peak throughput.")
    var tolerance: Double = 0.05

    func run() throws {
        guard tolerance > 0 && tolerance < 0.5 else {
            throw PoolSizeError.invalidOption(flag: "--tolerance", message: "must be in (0, 0.5), got \(tolerance)")
        }
        let table = try CSVTable.load(path: file)
        guard !table.rows.isEmpty else {
            throw PoolSizeError.invalidInput(
                path: file, message: "has a header but no data rows; pass a trials.csv or summary.csv with measurements"
            )
        }
        let fits = try FitInput.fits(table, x: x, y: y, tolerance: tolerance)
        print(format == .json ? FitTable.json(fits) : FitTable.render(fits), terminator: "")
        // A refused USL fit is a finding, not a failure, as long as the knee could be found.
        if fits.allSatisfy({ $0.usl == nil && $0.knee == nil }) {
            throw PoolSizeError.invalidInput(
                path: file, message: "nothing could be fitted: \(fits.first?.refusalSummary ?? "no data rows")")
        }
    }
}

/// `--format`.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned text for people.
    case table
    /// JSON for scripts.
    case json
}

/// Picks the columns and groups of a CSV for fitting.
enum FitInput {
    static let xCandidates = ["pool_size", "concurrency", "threads", "n"]
    static let yCandidates = ["throughput_per_s", "throughput_mean_per_s", "throughput", "x"]

    static func fits(_ table: CSVTable, x: String?, y: String?, tolerance: Double) throws(PoolSizeError) -> [CurveFit] {
        let xName: String, yName: String
        if let x { xName = x } else { xName = try pick(table, xCandidates, flag: "--x") }
        if let y { yName = y } else { yName = try pick(table, yCandidates, flag: "--y") }
        let xs = try table.numbers(try table.column(xName, flag: "--x"))
        let ys = try table.numbers(try table.column(yName, flag: "--y"))
        let groupColumns = ["workload", "pool", "qos", "primitive"].filter(table.hasColumn).map {
            table.strings(table.header.firstIndex(of: $0)!)
        }
        // An open-loop run's rows at different arrival rates are different curves: grouped by
        // the rate as parsed (a closed loop's empty cell is no rate), named by it.
        let rates: [Double?] =
            table.header.firstIndex(of: "arrival_rate_per_s").map { column in
                table.strings(column).map {
                    Double($0.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
                }
            } ?? Array(repeating: nil, count: table.rows.count)
        guard !groupColumns.isEmpty || rates.contains(where: { $0 != nil }) else {
            return [
                CurveFit.fit(
                    group: URL(fileURLWithPath: table.path).lastPathComponent, concurrency: xs, throughput: ys,
                    tolerance: tolerance)
            ]
        }
        struct Key: Hashable { var combination: String; var rate: Double? }
        let keys = (0..<table.rows.count).map { row in
            Key(
                combination: groupColumns.isEmpty
                    ? URL(fileURLWithPath: table.path).lastPathComponent
                    : groupColumns.map { $0[row] }.joined(separator: "/"), rate: rates[row])
        }
        var order: [Key] = []
        var indices: [Key: [Int]] = [:]
        for (row, key) in keys.enumerated() {
            if indices[key] == nil { order.append(key) }
            indices[key, default: []].append(row)
        }
        return order.map { key in
            let rows = indices[key]!
            let name = key.rate.map { "\(key.combination) at \(UnitFormat.rate($0))" } ?? key.combination
            return CurveFit.fit(
                group: name, concurrency: rows.map { xs[$0] }, throughput: rows.map { ys[$0] }, tolerance: tolerance)
        }
    }

    static func pick(_ table: CSVTable, _ candidates: [String], flag: String) throws(PoolSizeError) -> String {
        guard let name = candidates.first(where: table.hasColumn) else {
            throw .invalidInput(
                path: table.path,
                message:
                    "cannot tell which column to use; name it with \(flag) COLUMN (columns: \(table.header.joined(separator: ", ")))"
            )
        }
        return name
    }
}
