import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput

/// `poolsize export`: parse → read the run directory → convert → write.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert a run directory (of a sweep, or of 'observe --out') into formats other tools read.",
        discussion:
            "github-benchmark: throughput per size and the peak, for benchmark-action/github-action-benchmark's customBiggerIsBetter tool; github-benchmark-smaller: p99 latency per size and the recommended queue count, for its customSmallerIsBetter tool. openmetrics: the OpenMetrics text exposition (gauges) of the recommendation and per-size figures, for a Pushgateway or a textfile collector. An open-loop run (--arrival-rate) names its entries and labels its series by rate: the carried rate per size (bigger), the recommended size and the objective's percentile at it and per size (smaller), and in OpenMetrics that percentile, the model's, stability and whether the objective was met, per rate and size. An observation's run directory exports to openmetrics only: per pool its threads, CPU, shares, busy, Q/C, W/C and N (low and high bounds), verdict and per-task figures."
    )

    @Argument(help: "Run directory written by 'poolsize sweep' or 'poolsize observe --out'.", completion: .directory)
    var runDirectory: String

    @Option(help: "Format: github-benchmark, github-benchmark-smaller or openmetrics.")
    var to: ExportFormat

    @Option(help: "Write to FILE instead of standard output.", completion: .file())
    var output: String?

    func run() throws {
        let directory = RunDirectory(URL(fileURLWithPath: runDirectory))
        if directory.holdsObservation {
            guard to == .openmetrics else {
                throw PoolSizeError.invalidOption(
                    flag: "--to",
                    message: "\(to.rawValue) exports a sweep's curve; \(runDirectory) holds an observation "
                        + "(observation.json), which exports --to openmetrics")
            }
            try emit(OpenMetricsExport.serialize(try directory.loadObservation()))
            return
        }
        let run = try directory.load()
        run.warnings.forEach(PoolSizeCommand.printError)
        guard !run.records.isEmpty else {
            throw PoolSizeError.invalidInput(
                path: runDirectory, message: "has no trials to export; run 'poolsize sweep' into it first")
        }
        let analysis = RunAnalysis(run)
        let text: String
        switch to {
        case .githubBenchmark: text = GitHubBenchmarkExport.serialize(analysis, direction: .bigger)
        case .githubBenchmarkSmaller: text = GitHubBenchmarkExport.serialize(analysis, direction: .smaller)
        case .openmetrics: text = OpenMetricsExport.serialize(analysis)
        }
        try emit(text)
    }

    /// Writes `text` to `--output`, or standard output; a write that fails is an error.
    func emit(_ text: String) throws(PoolSizeError) {
        if let output {
            try OutputFile.write(text, to: output, flag: "--output")
        } else {
            try OutputFile.writeStandardOutput(text)
        }
    }
}

/// `export --to`.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    /// github-action-benchmark, customBiggerIsBetter: throughput.
    case githubBenchmark = "github-benchmark"
    /// github-action-benchmark, customSmallerIsBetter: latency and the recommended size.
    case githubBenchmarkSmaller = "github-benchmark-smaller"
    /// OpenMetrics text exposition.
    case openmetrics
}
