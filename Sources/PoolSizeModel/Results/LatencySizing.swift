/// How an open-loop sweep chose its count: at the highest rate offered, the smallest size that
/// kept up, or met the latency objective, with every size's verdict as the evidence.
/// recommendation.json holds these figures at the top level, beside the header's and, where the
/// highest rate's curve had a knee, that curve's.
public struct LatencySizing: Equatable, Sendable, Codable {
    /// The arrival rate the count is for (the highest offered).
    public var arrivalRate: ArrivalRate
    /// The latency objective, µs, from each task's intended arrival; nil sizes for keeping up.
    public var latencySLOMicroseconds: Double?
    /// The percentile the objective applies to.
    public var sloPercentile: Double
    /// Whether a measured size met the objective (kept up, without one). When false, the
    /// recommended count is only the largest size measured and the reason says what would.
    public var met: Bool
    /// That percentile at the recommended size (the worst of its trials), µs, when one met it.
    public var measuredMicroseconds: Double?
    /// The smallest size M/M/c (Poisson arrivals, exponential task times of the low-load mean
    /// C + W, one shared queue) says meets the objective or, without one, keeps up.
    public var queueingModelQueueCount: Int?
    /// Every size measured at the rate, with its verdict.
    public var sizeVerdicts: [SLOVerdict]
    /// Over a range of rates: the answer at each rate; nil for one rate. `recommendedQueueCount(at:)`
    /// reads it.
    package var rateSizings: [RateSizing]?
    /// The throughput curve of the trials at `arrivalRate`, when it had a knee: what the same
    /// trials say as a curve, beside the answer at the rate. Coded by `Recommendation.Sizing`,
    /// beside these figures.
    public var curve: Recommendation.ThroughputCurve? = nil

    /// A sizing from its figures (`SLOSizer` computes them).
    public init(
        arrivalRate: ArrivalRate, latencySLOMicroseconds: Double?, sloPercentile: Double, met: Bool,
        measuredMicroseconds: Double?,
        queueingModelQueueCount: Int?, sizeVerdicts: [SLOVerdict], curve: Recommendation.ThroughputCurve? = nil
    ) {
        self.arrivalRate = arrivalRate
        self.latencySLOMicroseconds = latencySLOMicroseconds
        self.sloPercentile = sloPercentile
        self.met = met
        self.measuredMicroseconds = measuredMicroseconds
        self.queueingModelQueueCount = queueingModelQueueCount
        self.sizeVerdicts = sizeVerdicts
        self.curve = curve
    }

    /// Over a range of rates, the smallest measured size that met the objective (or kept up,
    /// without one) at `rate`; nil when none did, or `rate` was not one of the range's.
    public func recommendedQueueCount(at rate: ArrivalRate) -> Int? {
        rateSizings?.first { $0.arrivalRate == rate }?.recommendedQueueCount
    }

    /// The keys recommendation.json gives these figures, beside the throughput figures.
    enum CodingKeys: String, CodingKey {
        case sloPercentile, queueingModelQueueCount, sizeVerdicts, rateSizings
        case met = "sloMet"
        case arrivalRate = "arrivalRatePerS"
        case latencySLOMicroseconds = "latencySloUs"
        case measuredMicroseconds = "sloMeasuredUs"
    }
}
