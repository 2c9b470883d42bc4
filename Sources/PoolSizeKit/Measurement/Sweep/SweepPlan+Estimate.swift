import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

/// What a sweep will cost before it runs: its trials, time and memory.
package struct SweepEstimate: Equatable, Sendable {
    /// The sizes the sweep will measure (for `auto`, the grid the spec's W/C predicts; for an
    /// adaptive search, the sizes it is expected to visit).
    package var sizes: [Int]
    /// Measured trials (every combination, size and repetition) plus warm-up trials; for an
    /// adaptive search the expected count.
    package var trials: Int
    /// Seconds the whole sweep takes: the low-load phase, warm-ups, trials and the report.
    package var seconds: Double
    /// Bytes the sweep may hold at once: its trial plan and records, and the largest pool's
    /// threads (stack pages touched and kernel stack).
    package var bytes: Double
    /// Whether an adaptive search's sizes are chosen from the W/C the low-load phase measures (a
    /// task that declares no times): `sizes` is then empty, none being known before.
    package var sizesFollowMeasurement = false
    /// How the sizes are chosen.
    package var search: SearchMode = .grid
    /// An adaptive search's most trials (with warm-ups); nil for a grid.
    package var maximumTrials: Int?
    /// Seconds the sweep takes at most: `maximumTrials`, each at the largest size it can
    /// visit, its window, its start and a drain of tasks as long as `longestTaskSeconds`.
    package var maximumSeconds: Double?
    /// The longest a task may take in that bound: the task timeout for a task of unknown length
    /// (a command, a request), else the declared task.
    package var longestTaskSeconds: Double = 0
    /// For a task of unknown length: the bound holds while a task alone takes at most this long
    /// (a longer task lengthens every trial's window); nil when the task is declared.
    package var boundTaskSeconds: Double?
    /// The largest pool the search can build (`maximumSeconds` starts every trial at it).
    package var maximumQueues: Int?
    /// Measured trials the exhaustive grid would run.
    package var gridTrials: Int = 0
    /// Seconds of the low-load phase (W/C with one worker).
    package var lowLoadSeconds: Double = 0
    /// Whether the sweep has a low-load phase: a load tool alone has none.
    package var measuresLowLoad = true
    /// The relative standard error of W/C at which the low-load phase stops.
    package var lowLoadRelativeError = 0.01
    /// Discarded warm-up trials.
    package var warmupTrials: Int = 0
    /// Seconds a measured trial takes on average, window, drain and overhead together (a
    /// window closes once its throughput is known, so trials at higher throughput are shorter).
    package var secondsPerTrial: Double = 0
    /// Repetitions per decisive size.
    package var repetitions: Int = 1
    /// (pool, tier, primitive) combinations.
    package var combinations: Int = 1
    /// Arrival rates of an open-loop sweep; nil for the closed loop.
    package var rates: Int?

    /// A sweep this long is refused: a plan typed by mistake must not run for days.
    package static let maximumSeconds = 24.0 * 3600
    /// A sweep estimated longer than this says so before it starts.
    package static let longSeconds = 600.0
    /// Memory a thread of a pool costs here (measured by `poolsize calibrate`: about 8 KiB of
    /// resident stack and 16 KiB of kernel stack), rounded up.
    static let bytesPerThread = 64.0 * 1024
    /// A trial's plan entry and record.
    static let bytesPerTrial = 2.0 * 1024

    /// An estimate from its figures.
    package init(sizes: [Int], trials: Int, seconds: Double, bytes: Double) {
        self.sizes = sizes
        self.trials = trials
        self.seconds = seconds
        self.bytes = bytes
    }

    /// `1,234 trials, about 2 h 3 min, 1.2 GiB`.
    package var summary: String {
        let count =
            maximumTrials.map { "\(trials) trials expected (at most \($0))" }
            ?? "\(trials) trial\(trials == 1 ? "" : "s")"
        let listed =
            sizes.count > 12
            ? "\(sizes.first!)…\(sizes.last!) (\(sizes.count) sizes)" : sizes.map(String.init).joined(separator: ",")
        let at =
            sizesFollowMeasurement || sizes.isEmpty
            ? "at sizes the measured W/C decides (from its formula's N)" : "at sizes \(listed)"
        return "\(count) \(at), about \(UnitFormat.estimate(seconds)), up to \(UnitFormat.memory(bytes))"
    }

    /// The dry run's lines: each phase of the sweep and what it costs.
    package var plan: String {
        var out =
            measuresLowLoad
            ? "low-load phase: about \(UnitFormat.estimate(lowLoadSeconds)) (one worker until W/C is known to \(UnitFormat.wholePercent(lowLoadRelativeError)))\n"
            : "low-load phase: none (a load tool alone prints no CPU time per request, so there is no W/C to measure)\n"
        out += "warm-up: \(warmupTrials) trial\(warmupTrials == 1 ? "" : "s")\n"
        let measured = trials - warmupTrials
        let trialText = "\(UnitFormat.number(secondsPerTrial)) s each on average with drain and overhead"
        if let rates {
            out +=
                "open loop: \(rates) rate\(rates == 1 ? "" : "s") × \(sizes.count) sizes × \(repetitions) repetition\(repetitions == 1 ? "" : "s") × \(combinations) combination\(combinations == 1 ? "" : "s") = \(measured) trials, \(trialText) (warm-up, window and tail of arrivals)\n"
        } else if let maximumTrials {
            out +=
                "adaptive search: \(measured) trials expected, at most \(maximumTrials - warmupTrials) (\(repetitions) repetition\(repetitions == 1 ? "" : "s") where the knee is decided, 1 elsewhere; \(combinations) combination\(combinations == 1 ? "" : "s")), \(trialText); the grid would run \(gridTrials)\n"
        } else {
            out +=
                "grid: \(sizes.count) sizes × \(repetitions) repetitions × \(combinations) combination\(combinations == 1 ? "" : "s") = \(measured) trials, \(trialText)\n"
        }
        out += "estimated time: about \(UnitFormat.estimate(seconds))"
        if let maximumSeconds { out += " (at most \(UnitFormat.estimate(maximumSeconds)))" }
        out += ", up to \(UnitFormat.memory(bytes)) of memory"
        if let maximumSeconds, let maximumTrials, let maximumQueues {
            let drain = UnitFormat.duration(min(2 * longestTaskSeconds, SweepTimeModel.drainTimeoutSeconds))
            let measuredTrials = maximumTrials - warmupTrials
            out +=
                "\nat most: the low-load phase, \(warmupTrials) warm-up and \(measuredTrials) trial\(measuredTrials == 1 ? "" : "s") (busy retries included) at up to \(maximumQueues) queues, each its window, the start of its queues and a drain of up to \(drain) (two tasks a queue"
            out +=
                boundTaskSeconds != nil
                ? " that may run to \(PoolSizeError.Parameter.taskTimeout.mention) \(UnitFormat.duration(longestTaskSeconds)))"
                : " of \(UnitFormat.duration(longestTaskSeconds)))"
            out += ": \(UnitFormat.estimate(maximumSeconds))"
            if let boundTaskSeconds {
                out +=
                    "; the task's length is measured first: if one takes longer than \(UnitFormat.duration(boundTaskSeconds)) alone, every trial lengthens to 15 tasks"
            }
        }
        return out
    }

    /// One line before a sweep estimated over 10 minutes starts; nil for a shorter one.
    package var longWarning: String? {
        guard seconds > Self.longSeconds else { return nil }
        return
            "note: this sweep is estimated at about \(UnitFormat.estimate(seconds)); \(PoolSizeError.Parameter.budgetSeconds.mention) 5m (with \(PoolSizeError.Parameter.sizes.mention) auto), fewer \(PoolSizeError.Parameter.repetitions.mention), fewer axes or a shorter \(PoolSizeError.Parameter.trialMilliseconds.mention) shorten it"
    }

}

extension SweepPlan {
    /// The cost of this plan. For `auto` sizes the grid comes from the spec's declared W/C (the
    /// measured one moves it little); a workload with no declared times is planned as W/C = 0.
    /// An adaptive search is run on the ideal curve of that W/C (throughput rising linearly
    /// to the formula's knee, flat after it) to give the expected count.
    package var estimate: SweepEstimate { estimate(taskTimeoutSeconds: nil) }

    /// The closed loop's share of `estimate(taskTimeoutSeconds:)` (SweepPlan+Load): the grid,
    /// or the search's expected trials, with `taskTimeoutSeconds` bounding a task in the "at most".
    func closedLoopEstimate(taskTimeoutSeconds: Double?) -> SweepEstimate {
        let declared = spec.cpuMicroseconds > 0 ? spec.waitCPURatio : 0
        let prediction = SizingFormula.queueCount(
            cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: declared)
        var grid: [Int]
        switch sizes {
        case .auto: grid = bounded(SizeGrid.auto(prediction: prediction, cores: cores))
        case let .explicit(list): grid = list
        }
        // The rules of thumb's sizes are measured beside the grid (a server sweep's).
        if search != .adaptive { grid = Array(Set(grid).union(ruleSizes)).sorted() }
        let model = SweepTimeModel(plan: self)
        let combinationCount = Double(combinations.count)
        let knee = Double(cores) * (1 + declared)
        // A trial's length follows its throughput (a window closes once that is known): tasks a
        // second on the soft curve below.
        func trialSeconds(_ size: Int) -> Double {
            model.expectedSecondsPerTrial(
                throughputPerSecond: Self.softCurve(size, knee: knee) / model.taskSeconds)
        }
        var measuredSizes = grid
        var measured = combinationCount * Double(grid.count) * Double(repetitions)
        var measuredSeconds = combinationCount * Double(repetitions) * grid.map(trialSeconds).reduce(0, +)
        var maximum: Double? = nil
        var largest = grid.max() ?? 1
        if search == .adaptive {
            let searcher = sizeSearch(prediction: prediction)
            // A real curve bends before the formula's knee (queueing) and its trials vary: the
            // search then bisects and repeats more than on the ideal kink. Modelled as a soft
            // knee and the 1% trial-to-trial variation the benchmark measures, averaged over 16
            // seeded runs.
            var total = 0
            var seconds = 0.0
            for seed in 0..<Self.estimateRuns {
                var random = SeededGenerator(seed: UInt64(seed) + 1)
                let samples = searcher.simulate { size in
                    let u = Double(random.next() >> 11) / Double(1 << 53)
                    return Self.softCurve(size, knee: knee) * (1 + Self.estimateVariation * 1.732 * (2 * u - 1))
                }
                // Without declared times the run's sizes follow the W/C it measures, from the
                // formula's N on: none is known before.
                if seed == 0 { measuredSizes = declaresTask ? samples.keys.sorted() : [] }
                total += samples.values.map(\.count).reduce(0, +)
                seconds += samples.map { Double($0.value.count) * trialSeconds($0.key) }.reduce(0, +)
            }
            measured = combinationCount * (Double(total) / Double(Self.estimateRuns)).rounded()
            measuredSeconds = combinationCount * seconds / Double(Self.estimateRuns)
            // W/C not declared (a command, a request): the low-load phase may measure any; the
            // widest search (up to the largest pool) bounds every other, so the bound takes it.
            let widest = declaresTask ? searcher : sizeSearch(prediction: Double(SizeSelection.maximumSize))
            let valid = combinationCount * Double(widest.maximumTrials)
            // Busy trials are retried from a budget of a quarter of the trials (at least 2).
            maximum = valid + (busyRetries > 0 ? max(2, (valid / 4).rounded(.down)) : 0)
            largest = widest.upper
        }
        let warmups = Double(warmupTrials)
        var estimate = SweepEstimate(
            sizes: measuredSizes, trials: Self.count(measured + warmups),
            seconds: model.seconds(trialSeconds: measuredSeconds, warmups: warmupTrials),
            bytes: (measured + warmups) * SweepEstimate.bytesPerTrial + Double(largest) * SweepEstimate.bytesPerThread)
        estimate.search = search
        estimate.sizesFollowMeasurement = search == .adaptive && !declaresTask
        estimate.maximumTrials = maximum.map { Self.count($0 + warmups) }
        let longest =
            declaresTask
            ? model.longestTaskSeconds : min(taskTimeoutSeconds ?? .infinity, SweepTimeModel.drainTimeoutSeconds)
        estimate.longestTaskSeconds = longest
        estimate.boundTaskSeconds = declaresTask ? nil : model.windowSeconds / 15
        estimate.maximumQueues = maximum.map { _ in largest }
        estimate.maximumSeconds = maximum.map {
            model.maximumSeconds(trials: $0, warmups: warmupTrials, queues: largest, longestTaskSeconds: longest)
        }
        estimate.gridTrials = Self.count(combinationCount * Double(grid.count) * Double(repetitions))
        estimate.lowLoadSeconds = model.lowLoadSeconds
        estimate.measuresLowLoad = target.measuresLowLoad
        estimate.lowLoadRelativeError = target.lowLoadRelativeError
        estimate.warmupTrials = warmupTrials
        estimate.secondsPerTrial = measured > 0 ? measuredSeconds / measured : model.secondsPerTrial
        estimate.repetitions = repetitions
        estimate.combinations = combinations.count
        return estimate
    }

    /// An open-loop sweep's cost: every combination, rate, size and repetition, each trial its
    /// warm-up, window and tail (a task of unknown length is planned at the spec's trial length).
    func openLoopEstimate(_ arrival: ArrivalPlan) -> SweepEstimate {
        let model = SweepTimeModel(plan: self)
        let task = UInt64(model.taskSeconds * 1e9)
        let sizes = openLoopSizes(arrival, taskSeconds: model.taskSeconds)
        let perRate = arrival.rates.map {
            Double(openLoopTrial(arrival, rate: $0, taskNanoseconds: task).totalNanoseconds) / 1e9
        }
        let trialSeconds =
            perRate.reduce(0, +) / Double(max(perRate.count, 1)) + model.taskSeconds
            + SweepTimeModel.overheadSecondsPerTrial
        let measured = Double(combinations.count * arrival.rates.count * sizes.count * repetitions)
        let warmup = min(model.windowSeconds, 0.3) + model.taskSeconds + SweepTimeModel.overheadSecondsPerTrial
        let all = measured + Double(warmupTrials)
        let seconds: Double =
            SweepTimeModel.fixedSeconds + model.lowLoadSeconds + Double(warmupTrials) * warmup + measured * trialSeconds
        // Arrivals are recorded (time, latency, backlog): 40 bytes each at the highest rate.
        let arrivals: Double = arrival.topRate.arrivals(in: perRate.max() ?? 0)
        let threads: Double = Double(sizes.max() ?? 1) * SweepEstimate.bytesPerThread
        let bytes: Double = all * SweepEstimate.bytesPerTrial + threads + 40 * arrivals
        var estimate = SweepEstimate(sizes: sizes, trials: Self.count(all), seconds: seconds, bytes: bytes)
        estimate.gridTrials = Self.count(measured)
        estimate.lowLoadSeconds = model.lowLoadSeconds
        estimate.measuresLowLoad = target.measuresLowLoad
        estimate.lowLoadRelativeError = target.lowLoadRelativeError
        estimate.warmupTrials = warmupTrials
        estimate.secondsPerTrial = trialSeconds
        estimate.repetitions = repetitions
        estimate.combinations = combinations.count
        estimate.rates = arrival.rates.count
        return estimate
    }

    /// Whether the spec declares its task's times (a synthetic workload, a trace); a command's
    /// or a request's are known only once the low-load phase has measured them.
    var declaresTask: Bool { spec.cpuMicroseconds + spec.waitMicroseconds > 0 }

    /// The throughput, in queues' worth, of `size` queues on a curve with its knee at `knee`:
    /// the ideal kink (rising with the size, flat from the knee) softened as a real curve bends
    /// before it (a power mean with exponent 8).
    package static func softCurve(_ size: Int, knee: Double) -> Double {
        let n = Double(size)
        return n / pow(1 + pow(n / knee, 8), 1.0 / 8)
    }

    /// Seeded runs of the search the expected trial count averages.
    static let estimateRuns = 16
    /// Trial-to-trial coefficient of variation assumed for the expected count (uniform noise of
    /// this standard deviation: half-width √3 × CV).
    static let estimateVariation = 0.01

    static func count(_ value: Double) -> Int { value > Double(Int.max) ? Int.max : Int(value) }
}
