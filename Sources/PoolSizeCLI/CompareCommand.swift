import ArgumentParser
import PoolSizeModel
import PoolSizeOutput
import PoolSizeAnalysis

extension CompareFormat: ExpressibleByArgument {}

/// `poolsize compare BASE CURRENT`: read both runs → compare → print → exit 0, 2 (regression) or
/// 3 (not comparable). The verdicts live in `RunComparator`, the reading in `CompareRunReader`.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs' throughput and p99 latency per configuration and flag regressions.",
        discussion: """
            Configurations are matched on (workload, pool, qos, primitive, pool_size). A metric regresses when its median \
            over repetitions moves the wrong way by more than --threshold and the change is significant (Mann–Whitney U, \
            p < 0.05, when the repetitions allow it; otherwise non-overlapping 95% t-intervals). \
            Open-loop runs (--arrival-rate) compare only with open-loop runs of the same rates, arrival process, \
            --latency-slo and --slo-percentile; per rate and size they show whether the objective was met in each run \
            and how its percentile moved, and regress when a size that met it misses it now or a recommendation grows \
            past the next size measured. \
            Exit codes: 0 no regression, 2 regression (the table is printed first), 3 the runs cannot be compared \
            (different workload, cores, open and closed loop, other arrivals or objective, or no configuration in common).
            """)

    @Argument(
        help: ArgumentHelp("The run to compare against (a run directory or its trials.csv).", valueName: "base-run"),
        completion: .directory)
    var base: String

    @Argument(help: ArgumentHelp("The run under test.", valueName: "current-run"), completion: .directory)
    var current: String

    @Option(help: ArgumentHelp("Smallest relative change that counts, e.g. 5% or 0.05.", valueName: "fraction"))
    var threshold: String = "5%"

    @Option(help: "Output: markdown or json.")
    var format: CompareFormat = .markdown

    func run() throws {
        let limit = try validThreshold()
        var comparison = try RunComparator.compare(
            base: CompareRunReader.load(base, warn: PoolSizeCommand.printError),
            current: CompareRunReader.load(current, warn: PoolSizeCommand.printError), threshold: limit)
        comparison.notes = comparison.notes.map(ParameterFlags.word)
        print(format == .json ? JSONExport.serialize(comparison) : ComparisonReport.render(comparison), terminator: "")
        if comparison.verdict == .regression { throw PoolSizeError.regression(details: comparison.summary) }
    }

    func validThreshold() throws(PoolSizeError) -> Double {
        let value = try QuantityParser.fraction(threshold, flag: "--threshold")
        guard value >= 0, value < 1 else {
            throw .invalidOption(
                flag: "--threshold", message: "must be in [0, 100%), got \(UnitFormat.percent(value)); write 5% or 0.05"
            )
        }
        return value
    }
}
