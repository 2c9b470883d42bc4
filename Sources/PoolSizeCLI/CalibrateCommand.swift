import ArgumentParser
import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// `poolsize calibrate`: parse → validate → measure → export (docs/conventions.md).
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Measure what threads, locks, context switches and dispatch cost on this machine, next to Apple's reference table.",
        discussion:
            "Times thread creation, lock + unlock of every primitive, compare-and-swap, a context switch, dispatch async → start and an idle thread's memory, each over several rounds, and prints the median with its range, Apple's figure (2 GHz Core Duo) and the ratio. Writes a CSV row per operation, rewritten as each finishes."
    )

    @Option(help: "Measured rounds per operation (after one warm-up round), 3 to 50.")
    var rounds: Int = 7

    @Option(
        name: .customLong("round-ms"),
        help: "Time one round of a loop measurement aims for, in milliseconds (1 to 1000).")
    var roundMilliseconds: Double = 20

    @Option(help: "Output on stdout: table or json.")
    var format: OutputFormat = .table

    @Option(
        help: "CSV file to write (default: results/calibrate-<timestamp>.csv).", completion: .file(extensions: ["csv"]))
    var out: String?

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    func run() throws {
        let settings = try makeSettings()
        let csv = try csvURL()
        let export = try CalibrationExport(
            csv: csv, progress: ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0))
        var result = try CalibrationRunner(settings: settings).run(observer: export)
        export.progress.finish()
        result.machine = MachineProbe.facts()
        result.csvPath = csv.path
        if format == .json {
            print(JSONExport.serialize(result), terminator: "")
        } else {
            print(CalibrationTable.render(result), terminator: "")
            print("wrote \(csv.path)")
        }
    }

    func makeSettings() throws(PoolSizeError) -> CalibrationSettings {
        try (3...50).check(rounds, flag: "--rounds", hint: "3 gives a spread, 7 a steadier median")
        guard roundMilliseconds >= 1 && roundMilliseconds <= 1_000 else {
            throw .invalidOption(
                flag: "--round-ms", message: "must be 1 to 1000, got \(UnitFormat.number(roundMilliseconds))")
        }
        return CalibrationSettings(rounds: rounds, roundMilliseconds: roundMilliseconds)
    }

    func csvURL(date: Date = Date()) throws(PoolSizeError) -> URL {
        guard let out else { return URL(fileURLWithPath: "results/calibrate-\(Self.timestamp(date)).csv") }
        var isDirectory: ObjCBool = false
        if out.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            throw .invalidOption(
                flag: "--out",
                message:
                    "'\(out)' is a directory; pass a file path such as \(out.hasSuffix("/") ? out : out + "/")calibrate.csv"
            )
        }
        return URL(fileURLWithPath: out)
    }

    /// `20261122-051503`, UTC: sortable file names.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}

/// Rewrites the CSV after every measured operation and drives the progress line.
final class CalibrationExport: CalibrationObserver {
    let csv: URL
    let progress: ProgressLine
    private var measurements: [CalibrationMeasurement] = []

    /// Writes the header at once, so an unwritable path fails before anything is measured.
    init(csv: URL, progress: ProgressLine) throws(PoolSizeError) {
        self.csv = csv
        self.progress = progress
        try AtomicFile.write(CalibrationCSV.header, to: csv)
    }

    func calibrationWillMeasure(_ operation: CalibrationOperation, index: Int, of total: Int) {
        progress.trial(index, of: total, label: operation.label)
    }

    func calibrationMeasured(_ measurement: CalibrationMeasurement, notes: [String]) throws(PoolSizeError) {
        measurements.append(measurement)
        try AtomicFile.write(CalibrationCSV.serialize(measurements), to: csv)
    }
}
