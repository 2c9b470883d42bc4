import Foundation
import PoolSizeModel

/// A run directory (results/README.md is the contract): the one place that knows its file
/// names and reads them. Every command that reads runs (`report`, `plot`, `compare`, `plan`,
/// `fit`) loads a `RunData` through `load()`, and `sweep` writes the same types through
/// `ExportManager`, so a file has one type, one encoder and one decoder.
package struct RunDirectory: Sendable {
    /// The files a run directory may hold.
    package enum File: String, CaseIterable, Sendable {
        /// One row per finished trial (`TrialsCSV`); the only required file.
        case trials = "trials.csv"
        /// `RunInfo`: machine facts and how the run was asked for.
        case machine = "machine.json"
        /// `LowLoadEstimate`: W and C with one worker.
        case lowLoad = "lowload.json"
        /// `TargetRecord`: what the sweep sized, its credentials masked, from which `--resume`
        /// alone rebuilds the sweep.
        case target = "target.json"
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
        /// `Observation`: what `poolsize observe --out` found (a run directory of an
        /// observation holds it instead of trials.csv).
        case observation = "observation.json"
    }

    /// An observation's folder of per-pool CSV files (`PoolTimelineCSV`), one per pool.
    package static let poolsFolder = "pools"

    /// The directory.
    package let url: URL

    /// The run directory at `url`.
    package init(_ url: URL) {
        self.url = url
    }

    /// `path` may name the directory or a `trials.csv` inside it.
    package init(path: String) {
        let url = URL(fileURLWithPath: path)
        self.init(
            url.lastPathComponent == File.trials.rawValue && !Self.isDirectory(url)
                ? url.deletingLastPathComponent() : url)
    }

    /// Where `file` is in this directory.
    package func url(_ file: File) -> URL { url.appendingPathComponent(file.rawValue) }

    /// The run's files. `trials.csv` is required; every other file is used when present, so a
    /// run that stopped part-way still loads. A machine.json must be a sweep's (hold its plan).
    package func load() throws(PoolSizeError) -> RunData {
        guard Self.isDirectory(url) else {
            throw Self.notADirectory(url, hint: "pass a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        guard let trialsText = try text(.trials) else {
            if holdsObservation {
                throw .invalidInput(
                    path: url.path,
                    message:
                        "it holds an observation (observation.json, written by 'poolsize observe --out'), not a "
                        + "sweep's trials; pass a sweep's run directory (results/<run-id>)")
            }
            throw .inputNotFound(
                path: url(.trials).path, hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        }
        var warnings: [String] = []
        let trialsPath = url(.trials).path
        let records = try TrialsCSV.parse(trialsText, path: trialsPath) { line in
            warnings.append(
                "warning: \(trialsPath): line \(line) is cut short (the sweep stopped while writing it) and was left out"
            )
        }
        let info = try decode(RunInfo.self, .machine)
        if let info, info.plan == nil {
            throw .invalidInput(
                path: url(.machine).path,
                message:
                    "it records no sweep plan (key 'plan'), so it is not a sweep's; pass the sweep's run directory, or delete the file to report from trials.csv alone"
            )
        }
        let lowLoad = try decode(LowLoadEstimate.self, .lowLoad)
        let recommendation = try decode(RecommendationSet.self, .recommendation)
        if let recommendation, let bad = Self.unmeasurableThroughput(recommendation) {
            throw .invalidInput(
                path: url(.recommendation).path,
                message:
                    "key '\(bad.key)' is \(UnitFormat.number(bad.value)), not a throughput (a finite number ≥ 0, as in "
                    + "trials.csv); the file is damaged: rerun the sweep, or delete the file to report from trials.csv alone"
            )
        }
        let contention =
            try text(.contention).map { text throws(PoolSizeError) in
                try ContentionCSV.parse(text, path: url(.contention).path)
            } ?? []
        try checkValues(info: info, lowLoad: lowLoad)
        try checkBelongTogether(records: records, info: info, recommendation: recommendation)
        let runID =
            info?.runID ?? records.first.map(\.runID).flatMap { $0.isEmpty ? nil : $0 }
            ?? url.standardizedFileURL.lastPathComponent
        var run = RunData(
            runID: runID, records: records, info: info, lowLoad: lowLoad, recommendation: recommendation,
            contention: contention)
        run.warnings = warnings
        return run
    }

    /// machine.json and recommendation.json must describe the trials beside them: the same run
    /// id, the same workload, and only combinations the plan and the trials have. A file left
    /// from another run would otherwise put a stale recommendation over these trials.
    func checkBelongTogether(records: [TrialRecord], info: RunInfo?, recommendation: RecommendationSet?)
        throws(PoolSizeError)
    {
        let fix = "it belongs to another run; rerun the sweep, or delete the file to report from trials.csv alone"
        let ids = Set(records.map(\.runID).filter { !$0.isEmpty })
        let workloads = Set(records.map(\.workload))
        let combinations = Set(records.map(\.combination))
        if let id = info?.runID, !ids.isEmpty, !ids.contains(id) {
            throw .invalidInput(
                path: url(.machine).path,
                message: "run id '\(id)', but trials.csv holds run '\(ids.sorted().joined(separator: ", "))'; \(fix)")
        }
        if let name = info?.plan?.spec.name, !workloads.isEmpty, !workloads.contains(name) {
            throw .invalidInput(
                path: url(.machine).path,
                message:
                    "workload '\(name)', but trials.csv measured '\(workloads.sorted().joined(separator: ", "))'; \(fix)"
            )
        }
        if let plan = info?.plan, let stray = combinations.subtracting(plan.combinations).sorted().first {
            throw .invalidInput(
                path: url(.machine).path, message: "its plan has no \(stray), which trials.csv measured; \(fix)")
        }
        guard let recommendation else { return }
        if !workloads.isEmpty, !workloads.contains(recommendation.best.workload) {
            throw .invalidInput(
                path: url(.recommendation).path,
                message:
                    "workload '\(recommendation.best.workload)', but trials.csv measured '\(workloads.sorted().joined(separator: ", "))'; \(fix)"
            )
        }
        if !records.isEmpty,
            let stray = recommendation.combinations.map(\.combination).first(where: { !combinations.contains($0) })
        {
            throw .invalidInput(
                path: url(.recommendation).path,
                message: "it recommends for \(stray), which trials.csv did not measure; \(fix)")
        }
    }

    /// The first throughput of `set` that no trial can measure (NaN, infinite or negative),
    /// with its key: the one number rule (`FiniteNumber`) trials.csv's readers apply, which
    /// report and compare skipped here, printing a peak of -5/s or a change of -100%.
    static func unmeasurableThroughput(_ set: RecommendationSet) -> (key: String, value: Double)? {
        for curve in ([set.best] + set.combinations).compactMap(\.curve) {
            let knee = curve.kneeThroughputPerSecond, peak = curve.peakThroughputPerSecond
            if !FiniteNumber.isQuantity(knee) { return ("knee_throughput_per_s", knee) }
            if !FiniteNumber.isQuantity(peak) { return ("peak_throughput_per_s", peak) }
        }
        return nil
    }

    /// The file's text, or nil when it does not exist.
    package func text(_ file: File) throws(PoolSizeError) -> String? {
        let url = url(file)
        guard try checkReadable(url) else { return nil }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidInput(path: url.path, message: "cannot be read as UTF-8 text: \(AtomicFile.reason(error))")
        }
    }

    /// The decoded file, or nil when it does not exist; a file that exists but does not decode
    /// is an error naming it and the key at fault.
    package func decode<T: Decodable>(_ type: T.Type, _ file: File) throws(PoolSizeError) -> T? {
        guard let text = try text(file) else { return nil }
        return try RunDirectoryJSON.decode(type, from: text, path: url(file).path)
    }

    /// Why `url`, which is no directory, cannot be read as a run: nothing is there (66), or
    /// something of another kind is, a file say (65), which "not found" would misreport.
    static func notADirectory(_ url: URL, hint: String) -> PoolSizeError {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return .inputNotFound(path: url.path, hint: hint) }
        let kind = status.st_mode & S_IFMT == S_IFREG ? "is a file, not a run directory" : "is not a directory"
        return .invalidInput(path: url.path, message: "\(kind); \(hint)")
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
