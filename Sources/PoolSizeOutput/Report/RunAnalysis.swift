import PoolSizeModel
import PoolSizeStats

/// A run's numbers arranged for charts and the report: per-combination curves, each with its
/// recommendation and USL fit. Pure: `RunData` in, values out.
public struct RunAnalysis: Equatable, Sendable {
    public struct Curve: Equatable, Sendable {
        public var combination: Combination
        /// Sorted by pool size.
        public var points: [ConfigurationSummary]
        /// From recommendation.json when it has one for this combination, else computed here.
        public var recommendation: RecommendationFile?
        public var usl: USLParameters?
        /// Why there is no USL curve, when there is none.
        public var uslRefusal: String?

        public var sizes: [Int] { points.map(\.poolSize) }
        public var peak: ConfigurationSummary? { points.max { $0.throughput.mean < $1.throughput.mean } }
        /// The configuration measured at `size`, or the nearest measured size (the smaller on ties).
        public func point(nearest size: Int) -> ConfigurationSummary? {
            points.min { (abs($0.poolSize - size), $0.poolSize) < (abs($1.poolSize - size), $1.poolSize) }
        }
    }

    public var run: RunData
    /// The recommended combination first, then the others in axis order.
    public var curves: [Curve]

    public var primary: Curve? { curves.first }
    public var summaries: [ConfigurationSummary] { curves.flatMap(\.points) }

    /// Low-load C and W in µs (the formula's inputs), from lowload.json or the recommendation.
    public var cpuMicrosecondsPerTask: Double? { run.lowLoad?.cpuMicrosecondsPerTask ?? run.recommendation?.cpuMicrosecondsPerTask }
    public var waitMicrosecondsPerTask: Double? { run.lowLoad?.waitMicrosecondsPerTask ?? run.recommendation?.waitMicrosecondsPerTask }

    public func varies<T: Hashable>(_ axis: KeyPath<Combination, T>) -> Bool {
        Set(curves.map { $0.combination[keyPath: axis] }).count > 1
    }

    /// A combination named by the axes this run varied (`thread-pool / mutex`), for legends.
    public func legend(_ combination: Combination) -> String {
        var parts: [String] = []
        if varies(\.pool) { parts.append(combination.pool.rawValue) }
        if varies(\.qos) { parts.append(combination.qos.rawValue) }
        if varies(\.primitive) { parts.append(combination.primitive.rawValue) }
        return parts.isEmpty ? combination.label : parts.joined(separator: " / ")
    }

    public init(_ run: RunData) {
        self.run = run
        let byCombination = Dictionary(grouping: ConfigurationSummary.summarize(run.records), by: \.combination)
        let top = run.recommendation
        let stored = (top?.combinations ?? []) + (top.map { [$0] } ?? [])
        let primaryKey = top.flatMap(Self.combination(of:))
            ?? (byCombination.count == 1 ? byCombination.keys.first : nil)
            ?? byCombination.max { ($0.value.map(\.throughput.mean).max() ?? 0) < ($1.value.map(\.throughput.mean).max() ?? 0) }?.key
        var curves: [Curve] = []
        for combination in byCombination.keys.sorted() {
            let records = run.records.filter { $0.combination == combination }
            let file = stored.first { Self.combination(of: $0) == combination }
                ?? (combination == primaryKey && top.flatMap(Self.combination(of:)) == nil ? top : nil)
            var curve = Curve(combination: combination, points: byCombination[combination]!, recommendation: file ?? Self.recommend(run, records))
            if let usl = file?.usl {
                curve.usl = usl
            } else if let refusal = file?.uslRefusal {
                curve.uslRefusal = refusal
            } else {
                (curve.usl, curve.uslRefusal) = Self.fitUSL(records)
            }
            curves.append(curve)
        }
        if let index = curves.firstIndex(where: { $0.combination == primaryKey }) { curves.insert(curves.remove(at: index), at: 0) }
        self.curves = curves
    }

    static func combination(of file: RecommendationFile) -> Combination? {
        guard let pool = file.pool.flatMap(PoolKind.init(rawValue:)), let qos = file.qos.flatMap(QoSTier.init(rawValue:)),
              let primitive = file.primitive.flatMap(PrimitiveKind.init(rawValue:)) else { return nil }
        return Combination(pool: pool, qos: qos, primitive: primitive)
    }

    /// The recommendation the sweep would have made for one combination, for runs whose
    /// recommendation.json does not hold one per combination.
    static func recommend(_ run: RunData, _ records: [TrialRecord]) -> RecommendationFile? {
        guard let lowLoad = run.lowLoad, let cores = run.cores,
              let r = Recommender.recommend(
                workload: run.workload, records: records, lowLoad: lowLoad, cores: cores,
                targetUtilization: run.recommendation?.targetUtilization ?? 1, tolerance: run.recommendation?.tolerance ?? 0.05,
                specWaitCPURatio: run.recommendation?.specWaitCPURatio)
        else { return nil }
        var file = RecommendationFile(
            workload: r.workload, cores: r.cores, waitCPURatio: r.waitCPURatio, targetUtilization: r.targetUtilization,
            formulaQueueCount: r.formulaQueueCount, kneePoolSize: r.kneePoolSize, peakThroughputPerSecond: r.peakThroughputPerSecond,
            recommendedQueueCount: r.recommendedQueueCount)
        file.formulaQueueCountExact = r.formulaQueueCountExact
        file.formulaQueueCountStandardError = r.formulaQueueCountStandardError
        file.kneeThroughputPerSecond = r.kneeThroughputPerSecond
        file.peakPoolSize = r.peakPoolSize
        file.tolerance = r.tolerance
        file.basis = r.basis.rawValue
        file.reason = r.reason
        return file
    }

    /// USL over every repetition (N = pool size), refused when the peak lies beyond the data.
    static func fitUSL(_ records: [TrialRecord]) -> (USLParameters?, String?) {
        let sizes = records.map { Double($0.poolSize) }
        do {
            let fit = try USLFit.fit(concurrency: sizes, throughput: records.map(\.throughputPerSecond))
                .validated(maxConcurrency: sizes.max() ?? 1)
            return (USLParameters(
                sigma: fit.sigma, kappa: fit.kappa, lambda: fit.lambda, sigmaStandardError: fit.sigmaStandardError,
                kappaStandardError: fit.kappaStandardError, lambdaStandardError: fit.lambdaStandardError,
                rSquared: fit.rSquared, peakConcurrency: fit.peakConcurrency), nil)
        } catch {
            return (nil, error.description)
        }
    }
}
