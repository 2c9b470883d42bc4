import Foundation
import PoolSizeModel

/// A run directory (results/README.md is the contract): the one place that knows its file
/// names and reads them. Every command that reads runs (`report`, `plot`, `compare`, `plan`,
/// `fit`) loads a `RunData` through `load()`, and `sweep` writes the same types through
/// `ExportManager`, so a file has one type, one encoder and one decoder.
public struct RunDirectory: Sendable {
    /// The files a run directory may hold.
    public enum File: String, CaseIterable, Sendable {
        /// One row per finished trial (`TrialsCSV`); the only required file.
        case trials = "trials.csv"
        /// `RunInfo`: machine facts and how the run was asked for.
        case machine = "machine.json"
        /// `LowLoadEstimate`: W and C with one worker.
        case lowLoad = "lowload.json"
        /// `RecommendationSet`.
        case recommendation = "recommendation.json"
        /// Per-configuration statistics (`SummaryCSV`).
        case summary = "summary.csv"
        /// `TierShare` rows, from `--contend`.
        case contention = "contention.csv"
        /// The console summary as printed.
        case summaryText = "summary.txt"
        /// The report as GitHub-flavoured Markdown.
        case reportMarkdown = "report.md"
        /// The report as one self-contained HTML page.
        case reportHTML = "report.html"
    }

    /// The directory.
    public let url: URL

    /// The run directory at `url`.
    public init(_ url: URL) {
        self.url = url
    }

    /// `path` may name the directory or a `trials.csv` inside it.
    public init(path: String) {
        let url = URL(fileURLWithPath: path)
        self.init(url.lastPathComponent == File.trials.rawValue && !Self.isDirectory(url) ? url.deletingLastPathComponent() : url)
    }

    /// Where `file` is in this directory.
    public func url(_ file: File) -> URL { url.appendingPathComponent(file.rawValue) }

    /// The run's files. `trials.csv` is required; every other file is used when present, so
    /// runs of earlier versions and runs that stopped part-way still load.
    public func load() throws(PoolSizeError) -> RunData {
        guard Self.isDirectory(url) else {
            throw .inputNotFound(path: url.path, hint: "pass a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        guard let trialsText = try text(.trials) else {
            throw .inputNotFound(path: url(.trials).path, hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        }
        let records = try TrialsCSV.parse(trialsText, path: url(.trials).path)
        let info = try decode(RunInfo.self, .machine)
        let lowLoad = try decode(LowLoadEstimate.self, .lowLoad)
        let recommendation = try decode(RecommendationSet.self, .recommendation)
        let contention = try text(.contention).map { text throws(PoolSizeError) in try ContentionCSV.parse(text, path: url(.contention).path) } ?? []
        let runID = info?.runID ?? records.first.map(\.runID).flatMap { $0.isEmpty ? nil : $0 } ?? url.standardizedFileURL.lastPathComponent
        return RunData(runID: runID, records: records, info: info, lowLoad: lowLoad, recommendation: recommendation, contention: contention)
    }

    /// The file's text, or nil when it does not exist.
    public func text(_ file: File) throws(PoolSizeError) -> String? {
        let url = url(file)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidInput(path: url.path, message: "cannot be read as UTF-8 text: \(AtomicFile.reason(error))")
        }
    }

    /// The decoded file, or nil when it does not exist; a file that exists but does not decode
    /// is an error naming it and the key at fault.
    public func decode<T: Decodable>(_ type: T.Type, _ file: File) throws(PoolSizeError) -> T? {
        guard let text = try text(file) else { return nil }
        return try RunDirectoryJSON.decode(type, from: text, path: url(file).path)
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
