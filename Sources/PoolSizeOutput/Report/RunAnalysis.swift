import PoolSizeModel
import PoolSizeStats
import PoolSizeAnalysis

/// A run's numbers arranged for charts and the report: per-combination curves, each with its
/// recommendation and USL fit. Pure: `RunData` in, values out.
package struct RunAnalysis: Equatable, Sendable {
    package struct Curve: Equatable, Sendable {
        package var combination: Combination
        /// Sorted by pool size.
        package var points: [ConfigurationSummary]
        /// From recommendation.json when it has one for this combination, else computed here.
        package var recommendation: Recommendation?
        package var usl: USLFit?
        /// Why there is no USL curve, when there is none.
        package var uslRefusal: String?

        package var sizes: [Int] { points.map(\.poolSize) }
        package var peak: ConfigurationSummary? { points.max { $0.throughput.mean < $1.throughput.mean } }
        /// The configuration measured at `size`, or the nearest measured size (the smaller on ties).
        package func point(nearest size: Int) -> ConfigurationSummary? {
            points.min { (abs($0.poolSize - size), $0.poolSize) < (abs($1.poolSize - size), $1.poolSize) }
        }
    }

    package var run: RunData
    /// The recommended combination first, then the others in axis order. In an open-loop run a
    /// curve's points are those at the recommendation's rate (`openLoop.topRate`).
    package var curves: [Curve]
    /// The load the run had, with an open loop's figures: the one thing each view switches on.
    package var loop: Loop
    /// What each pool of the run that sets its own size (`SizeOwner.pool`) did, against the fixed
    /// pools; empty without one.
    package var selfSized: [AdaptiveSummary]

    package var primary: Curve? { curves.first }
    package var summaries: [ConfigurationSummary] { curves.flatMap(\.points) }

    /// Low-load C and W in µs (the formula's inputs), from lowload.json or the recommendation.
    package var cpuMicrosecondsPerTask: Double? {
        run.lowLoad?.cpuMicrosecondsPerTask ?? run.recommendation?.best.cpuMicrosecondsPerTask.finite
    }
    package var waitMicrosecondsPerTask: Double? {
        run.lowLoad?.waitMicrosecondsPerTask ?? run.recommendation?.best.waitMicrosecondsPerTask.finite
    }

    package func varies<T: Hashable>(_ axis: KeyPath<Combination, T>) -> Bool {
        Set(curves.map { $0.combination[keyPath: axis] }).count > 1
    }

    /// A combination named by the axes this run varied (`thread-pool / mutex`), for legends.
    package func legend(_ combination: Combination) -> String {
        var parts: [String] = []
        if varies(\.pool) { parts.append(combination.pool.rawValue) }
        if varies(\.qos) { parts.append(combination.qos.rawValue) }
        if varies(\.primitive) { parts.append(combination.primitive.rawValue) }
        return parts.isEmpty ? combination.label : parts.joined(separator: " / ")
    }

    package init(_ run: RunData) {
        self.run = run
        // Curves, fits and summaries use the trials the machine can produce; the others are
        // named in the caveats.
        let valid = run.records.valid
        let all = ConfigurationSummary.summarize(valid)
        loop = Loop(run, summaries: all)
        let byCombination = Dictionary(grouping: loop.curvePoints(all), by: \.combination)
        let stored = run.recommendation?.combinations ?? []
        let primaryKey =
            run.recommendation?.best.combination
            ?? byCombination.filter { $0.key.pool.sizeOwner.holdsTrialSize }.max {
                ($0.value.map(\.throughput.mean).max() ?? 0) < ($1.value.map(\.throughput.mean).max() ?? 0)
            }?.key
        var curves: [Curve] = []
        for combination in byCombination.keys.sorted() {
            let records = valid.filter { $0.combination == combination }
            var curve = Curve(combination: combination, points: byCombination[combination]!, recommendation: nil)
            switch combination.pool.sizeOwner {
            case .pool:
                // Its size is its own: the axis is only its maximum, nothing to size or fit.
                curve.uslRefusal = "an adaptive pool chooses its own size: the axis is its maximum, not its concurrency"
            case .sweep, .command:
                let file = stored.first { $0.combination == combination }
                curve.recommendation = file ?? loop.recommend(run, records)
                (curve.usl, curve.uslRefusal) = loop.scalability(records, recorded: file)
            }
            curves.append(curve)
        }
        if let index = curves.firstIndex(where: { $0.combination == primaryKey }) {
            curves.insert(curves.remove(at: index), at: 0)
        }
        self.curves = curves
        selfSized = AdaptiveSummary.summarize(run.records, recommendations: curves.compactMap(\.recommendation))
    }

    /// The settings the sweep recommended with: the recommendation's, else the plan's.
    static func sizingSettings(_ run: RunData) -> (
        targetUtilization: Double, tolerance: Double, specWaitCPURatio: Double?
    ) {
        let best = run.recommendation?.best
        return (
            best?.targetUtilization ?? run.plan?.targetUtilization ?? 1,
            best?.curve?.tolerance ?? run.plan?.tolerance ?? 0.05,
            best?.specWaitCPURatio ?? run.plan?.spec.waitCPURatio
        )
    }

    /// USL over every repetition (N = pool size), refused when the peak lies beyond the data.
    static func fitUSL(_ records: [TrialRecord]) -> (USLFit?, String?) {
        let sizes = records.map { Double($0.poolSize) }
        do {
            return (
                try USLFit.fit(concurrency: sizes, throughput: records.map(\.throughputPerSecond)).validated(
                    maxConcurrency: sizes.max() ?? 1), nil
            )
        } catch {
            return (nil, error.description)
        }
    }
}

extension Double {
    /// The value, or nil when it is NaN or infinite (a figure the file did not record).
    var finite: Double? { isFinite ? self : nil }
}
