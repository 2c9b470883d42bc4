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
    /// Per configuration: size, mean throughput and its 95% interval, p99 latency, utilization.
    package var configurations: [Configuration]

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

        enum CodingKeys: String, CodingKey {
            case pool, qos, primitive, poolSize, repetitions, errors, utilization
            case throughputPerSecond = "throughputPerS", throughputLower = "throughputLowerPerS", throughputUpper = "throughputUpperPerS"
            case latencyP99Microseconds = "latencyP99Us"
        }
    }

    enum CodingKeys: String, CodingKey {
        case runDirectory, runID = "runId", workload, cores, lowLoad, recommendation, warnings, configurations
    }

    package init(_ analysis: RunAnalysis, runDirectory: String, workload: String, cores: Int) {
        self.runDirectory = runDirectory
        self.runID = analysis.run.runID
        self.workload = workload
        self.cores = cores
        self.lowLoad = analysis.run.lowLoad
        self.recommendation = analysis.run.recommendation
        self.warnings = ReportCaveats.caveats(analysis).map(ReportInline.plain)
        self.configurations = analysis.summaries.map { s in
            Configuration(
                pool: s.combination.pool.rawValue, qos: s.combination.qos.rawValue, primitive: s.combination.primitive.rawValue,
                poolSize: s.poolSize, repetitions: s.throughput.count, throughputPerSecond: s.throughput.mean,
                throughputLower: s.throughput.confidenceInterval95?.lower, throughputUpper: s.throughput.confidenceInterval95?.upper,
                latencyP99Microseconds: s.latencyP99Microseconds, utilization: s.utilization, errors: s.errors)
        }
    }
}
