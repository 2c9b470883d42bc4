import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput

/// Where a sweep's files go, whether it continues an earlier run, and what it prints.
struct SweepRunOptions: ParsableArguments {
    @Option(help: "Run directory (default: results/<run-id>).", completion: .directory)
    var out: String?

    @Option(
        help: "Directory for the charts' data, gnuplot scripts, SVG and PNG (default: plots/<run-id>).",
        completion: .directory)
    var plots: String?

    @Flag(
        help:
            "Replace the sweep's run at --out, or write into a directory of other files there (touching none of them).")
    var force = false

    @Option(help: ArgumentHelp(Help.resume, valueName: "RUN_DIR"), completion: .directory)
    var resume: String?

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(Help.dryRun))
    var dryRun = false

    @Flag(help: "No progress line on stderr (for CI).")
    var quiet = false

    @Option(help: ArgumentHelp(Help.format))
    var format: OutputFormat = .table

    /// The flags, checked; `--resume` must name a run directory (a chain's, with chain.csv,
    /// when `chain`).
    func check(chain: Bool = false) throws(PoolSizeError) {
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidOption(
                flag: "--out",
                message:
                    "is empty; name a directory, e.g. --out results/my-run (or leave --out out for results/<run-id>)")
        }
        if let plots, plots.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidOption(
                flag: "--plots",
                message:
                    "is empty; name a directory, e.g. --plots plots/my-run (or leave --plots out for plots/<run-id>)")
        }
        guard let resume else { return }
        if force {
            throw .invalidOption(
                flag: "--resume",
                message: "cannot be combined with --force; --force starts the run again, --resume continues it")
        }
        if let out, URL(fileURLWithPath: out).standardizedFileURL != URL(fileURLWithPath: resume).standardizedFileURL {
            throw .invalidOption(
                flag: "--resume", message: "continues the run in \(resume), but --out names \(out); drop --out")
        }
        let file = chain ? "chain.csv" : "trials.csv"
        guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: resume).appendingPathComponent(file).path)
        else {
            throw .inputNotFound(
                path: resume,
                hint:
                    "--resume takes a \(chain ? "chain's " : "")run directory with \(file), written by an interrupted 'poolsize sweep'"
            )
        }
    }

    /// The run directory: the one resumed, `--out`, or results/<run-id>.
    func directory(runID: String) -> URL { URL(fileURLWithPath: resume ?? out ?? "results/\(runID)") }

    /// How the run directory is opened.
    var mode: ExportManager.Mode { resume != nil ? .resume : force ? .replace : .create }

    private enum Help {
        static let resume = """
            Continue the interrupted sweep in RUN_DIR, running only the trials it lacks; give the flags it was \
            started with (checked against its machine.json).
            """
        static let dryRun = """
            Print the trials the sweep would run, its estimated time and memory, and exit without measuring. A \
            plan over 24 hours or over this machine's memory is refused either way (exit 64).
            """
        static let format = """
            Standard output: table (the console summary and the run directory) or json (one document: \
            recommendation, per-size figures, warnings, run directory).
            """
    }
}
