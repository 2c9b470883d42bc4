import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

extension SweepPlan {
    /// The pool sizes the sweep measures once the task's time at low load is known: the
    /// explicit list, or for `auto` a grid around the formula's N (closed loop) or around the
    /// rates' Little's-law load (open loop).
    func trialSizes(lowLoad: LowLoadEstimate, taskNanoseconds: UInt64) throws(PoolSizeError) -> [Int] {
        switch load {
        case .closed:
            if case let .explicit(list) = sizes { return list }
            let prediction = SizingFormula.queueCount(
                cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: lowLoad.waitCPURatio)
            return bounded(SizeGrid.auto(prediction: prediction, cores: cores))
        case let .open(arrival):
            let taskSeconds = Double(taskNanoseconds) / 1e9
            let top = arrival.topRate
            if sizes == .auto, top.arrivals(in: taskSeconds) > Double(SizeSelection.maximumSize) {
                // Little's law: fewer queues than rate × (C + W) cannot keep up, and auto would
                // otherwise fall back to sizes that cannot carry the rate at all.
                let most = Double(SizeSelection.maximumSize) / taskSeconds
                throw .invalidParameter(
                    .arrivalRates,
                    message:
                        "\(top) keeps \(UnitFormat.number(top.arrivals(in: taskSeconds))) queues busy on average by Little's law (rate × C + W of \(UnitFormat.duration(taskSeconds)) at low load), beyond the \(SizeSelection.maximumSize) queues a sweep measures; offer at most \(UnitFormat.rate(most.rounded(.down)))"
                )
            }
            return openLoopSizes(arrival, taskSeconds: taskSeconds)
        }
    }

    /// The sizes an open-loop sweep measures: the explicit list, or `OpenLoopSizes.auto` from the
    /// rates and the task's time at low load.
    package func openLoopSizes(_ arrival: ArrivalPlan, taskSeconds: Double) -> [Int] {
        if case let .explicit(list) = sizes { return list }
        return bounded(OpenLoopSizes.auto(rates: arrival.rates.map(\.perSecond), taskSeconds: taskSeconds))
    }

    /// `auto`'s sizes within the target's limit (a database's connections), the limit itself in
    /// place of those past it, so the top of the range is still measured.
    func bounded(_ sizes: [Int]) -> [Int] {
        guard let bound = target.sizeLimit else { return sizes }
        let within = sizes.filter { $0 <= bound }
        return within.count == sizes.count ? within : Array(Set(within + [max(bound, 1)])).sorted()
    }

    /// How an open-loop trial at `rate` is driven, for tasks of `taskNanoseconds`.
    package func openLoopTrial(_ arrival: ArrivalPlan, rate: ArrivalRate, taskNanoseconds: UInt64) -> OpenLoopTrial {
        var trial = OpenLoopTrial.forTasks(
            ofNanoseconds: taskNanoseconds, rate: rate.perSecond, process: arrival.process,
            trialNanoseconds: UInt64(trialMilliseconds ?? spec.trialMilliseconds) * 1_000_000,
            userSetTrial: trialMilliseconds != nil, latencySLOMicroseconds: arrival.latencySLOMicroseconds)
        trial.sloPercentile = arrival.sloPercentile
        return trial
    }

    /// How the trial `trial` is driven: the closed loop's settings, or the arrivals of its rate
    /// in the open loop.
    func request(_ trial: PlannedTrial, index: Int, settings: TrialSettings, taskNanoseconds: UInt64) -> TrialRequest {
        TrialRequest(
            combination: trial.combination, size: trial.size,
            loop: loop(of: trial, settings: settings, taskNanoseconds: taskNanoseconds), seed: seed &+ UInt64(index))
    }

    /// The loop that drives `trial`: `settings` in the closed loop (and for a trial planned
    /// without a rate); in the open loop, the arrivals of the trial's rate for tasks of
    /// `taskNanoseconds`.
    func loop(of trial: PlannedTrial, settings: TrialSettings, taskNanoseconds: UInt64) -> TrialRequest.Loop {
        guard case let .open(arrival) = load, let rate = trial.rate else { return .closed(settings) }
        var open = openLoopTrial(arrival, rate: rate, taskNanoseconds: taskNanoseconds)
        // A pool that sizes itself starts at the cores: its window measures the size it settled
        // on, after the time its cold start is given, not the backlog of its first windows.
        if trial.combination.pool.sizeOwner == .pool {
            open.warmupNanoseconds = max(open.warmupNanoseconds, OpenLoopTrial.settlingNanoseconds)
        }
        return .open(open)
    }

    /// Whether the sweep runs an adaptive search for the throughput knee: asked for, and a load
    /// with a knee (the closed loop); an open loop measures every planned trial.
    var runsAdaptiveSearch: Bool { search == .adaptive && load.hasThroughputKnee }

    /// Whether `auto` sizes widen past the grid while throughput still rises at its largest
    /// size: they are meant to find the knee, which only the closed loop has.
    var widensAutoSizes: Bool { sizes == .auto && load.hasThroughputKnee }

    /// The cost of this plan, a task of unknown length (a command, a request) bounded by
    /// `taskTimeoutSeconds` in the "at most" (the drain timeout when nil): the closed loop's
    /// grid or search, or every trial of the open loop's rates.
    package func estimate(taskTimeoutSeconds: Double?) -> SweepEstimate {
        switch load {
        case .closed: return closedLoopEstimate(taskTimeoutSeconds: taskTimeoutSeconds)
        case let .open(arrival): return openLoopEstimate(arrival)
        }
    }
}
