import PoolSizeAnalysis
import PoolSizeModel

/// `poolsize sweep --format json`: what the console summary says, as one JSON document on
/// standard output (progress and errors stay on standard error). The run directory holds the
/// rest (trials.csv, summary.csv, the report).
package struct SweepOutput: Encodable {
    package var runDirectory: String
    package var runID: String
    package var workload: String
    package var cores: Int
    package var lowLoad: LowLoadEstimate?
    /// nil when no recommendation could be made (no valid trials, no knee).
    package var recommendation: RecommendationSet?
    /// The report's caveats, as plain text.
    package var warnings: [String]
    /// Per configuration: size, mean throughput and its 95% interval, p99 latency, utilization;
    /// in an open loop also the rate, stability, backlog and the objective's verdict.
    package var configurations: [Configuration]
    /// The open-loop arrivals and objective (rates as measured); absent for a closed loop.
    package var arrival: ArrivalPlan?

    package struct Configuration: Encodable {
        var pool: String
        var qos: String
        var primitive: String
        var poolSize: Int
        var repetitions: Int
        var throughputPerSecond: Double
        var throughputLower: Double?
        var throughputUpper: Double?
        var latencyP99Microseconds: Double
        var utilization: Double
        var errors: Int
        /// Open loop only (absent from a closed loop's JSON): the configuration's rate and figures.
        var arrivalRate: ArrivalRate?
        var offeredPerSecond: Double?
        var achievedPerSecond: Double?
        var stable: Bool?
        var backlogMean: Double?
        var backlogMax: Int?
        var unfinished: Int?
        var dispatchLagP99Microseconds: Double?
        /// The median repetition's p50 and the worst repetition's value at the objective's percentile.
        var latencyP50Microseconds: Double?
        var sloPercentileMicroseconds: Double?
        var modelSLOPercentileMicroseconds: Double?
        /// Whether the size kept up and met the objective; absent without an objective.
        var meetsSLO: Bool?

        enum CodingKeys: String, CodingKey {
            case pool, qos, primitive, poolSize, repetitions, errors, utilization, stable, backlogMean, backlogMax,
                unfinished
            case throughputPerSecond = "throughputPerS", throughputLower = "throughputLowerPerS", throughputUpper =
                "throughputUpperPerS"
            case latencyP99Microseconds = "latencyP99Us"
            case arrivalRate = "arrivalRatePerS", offeredPerSecond = "offeredPerS", achievedPerSecond = "achievedPerS"
            case dispatchLagP99Microseconds = "dispatchLagP99Us", latencyP50Microseconds = "latencyP50Us"
            case sloPercentileMicroseconds = "sloPercentileUs", modelSLOPercentileMicroseconds = "modelSloPercentileUs",
                meetsSLO = "meetsSlo"
        }
    }

    enum CodingKeys: String, CodingKey {
        case runDirectory, runID = "runId", workload, cores, lowLoad, recommendation, warnings, configurations, arrival
    }

    package init(_ analysis: RunAnalysis, runDirectory: String, workload: String, cores: Int) {
        self.runDirectory = runDirectory
        self.runID = analysis.run.runID
        self.workload = workload
        self.cores = cores
        self.lowLoad = analysis.run.lowLoad
        self.recommendation = analysis.run.recommendation
        self.warnings = ReportCaveats.caveats(analysis).map(ReportInline.plain)
        switch analysis.loop {
        case .closed:
            configurations = analysis.summaries.map(Self.configuration)
        case let .open(open):
            arrival = open.arrival
            configurations = Self.openLoopConfigurations(open)
        }
    }

    /// A configuration's figures every load has.
    static func configuration(_ s: ConfigurationSummary) -> Configuration {
        Configuration(
            pool: s.combination.pool.rawValue, qos: s.combination.qos.rawValue,
            primitive: s.combination.primitive.rawValue,
            poolSize: s.poolSize, repetitions: s.throughput.count, throughputPerSecond: s.throughput.mean,
            throughputLower: s.throughput.confidenceInterval95?.lower,
            throughputUpper: s.throughput.confidenceInterval95?.upper,
            latencyP99Microseconds: s.latencyP99Microseconds, utilization: s.utilization, errors: s.errors)
    }
}
