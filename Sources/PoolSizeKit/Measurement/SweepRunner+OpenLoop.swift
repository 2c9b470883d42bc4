import PoolSizeModel

extension SweepPlan {
    /// The sizes an open-loop sweep measures: the explicit list, or `OpenLoopSizes.auto` from the
    /// rates and the task's time at low load.
    public func openLoopSizes(_ arrival: ArrivalPlan, taskSeconds: Double) -> [Int] {
        if case let .explicit(list) = sizes { return list }
        return OpenLoopSizes.auto(rates: arrival.rates.map(\.perSecond), taskSeconds: taskSeconds)
    }

    /// How an open-loop trial at `rate` is driven, for tasks of `taskNanoseconds`.
    public func openLoopTrial(_ arrival: ArrivalPlan, rate: ArrivalRate, taskNanoseconds: UInt64) -> OpenLoopTrial {
        OpenLoopTrial.forTasks(
            ofNanoseconds: taskNanoseconds, rate: rate.perSecond, process: arrival.process,
            trialNanoseconds: UInt64(trialMilliseconds ?? spec.trialMilliseconds) * 1_000_000,
            userSetTrial: trialMilliseconds != nil, latencySLOMicroseconds: arrival.latencySLOMicroseconds)
    }
}

extension SweepRunner {
    /// The open-loop sweep: every (combination, rate, size, repetition) once, in a seeded
    /// shuffled order, each an open-loop trial. No size is added or skipped on the way: which
    /// sizes meet the objective is decided afterwards, from all of them.
    func runOpenLoop(_ plan: SweepPlan, arrival: ArrivalPlan, lowLoad: LowLoadEstimate, observer: any SweepObserver, done: [TrialKey: TrialRecord], rng: SeededGenerator) throws(PoolSizeError) -> [TrialRecord] {
        var rng = rng
        let measured = UInt64(max(0, lowLoad.cpuMicrosecondsPerTask + lowLoad.waitMicrosecondsPerTask) * 1_000)
        let taskNanoseconds = declaredTaskNanoseconds ?? measured
        let taskSeconds = Double(taskNanoseconds) / 1e9
        if plan.sizes == .auto, let top = arrival.rates.max(), top.arrivals(in: taskSeconds) > Double(SizeSelection.maximumSize) {
            // Little's law: fewer queues than rate × (C + W) cannot keep up, and auto would
            // otherwise fall back to sizes that cannot carry the rate at all.
            let most = Double(SizeSelection.maximumSize) / taskSeconds
            throw .invalidOption(flag: "--arrival-rate", message: "\(top) keeps \(UnitFormat.number(top.arrivals(in: taskSeconds))) queues busy on average by Little's law (rate × C + W of \(UnitFormat.duration(taskSeconds)) at low load), beyond the \(SizeSelection.maximumSize) queues a sweep measures; offer at most \(UnitFormat.rate(most.rounded(.down)))")
        }
        let sizes = plan.openLoopSizes(arrival, taskSeconds: taskSeconds)
        observer.sweepMeasuredLowLoad(lowLoad, sizes: sizes)
        let settings = plan.trialSettings(taskNanoseconds: taskNanoseconds)
        for _ in 0..<plan.warmupTrials {
            var warmup = settings
            warmup.durationNanoseconds = min(settings.durationNanoseconds, 300_000_000)
            let combination = Combination(pool: .queuePool, qos: plan.tiers.first ?? .default, primitive: .none)
            _ = try measurer.measure(TrialRequest(combination: combination, size: sizes.max() ?? 1, settings: warmup, seed: plan.seed), cores: plan.cores, readRatio: plan.readRatio)
        }
        var order: [(combination: Combination, rate: ArrivalRate, size: Int, repetition: Int)] = []
        for combination in plan.combinations {
            for rate in arrival.rates {
                for size in sizes { for repetition in 1...plan.repetitions { order.append((combination, rate, size, repetition)) } }
            }
        }
        order.shuffle(using: &rng)
        var retryBudget = max(2, order.count / 4)
        var records: [TrialRecord] = []
        for (index, trial) in order.enumerated() {
            if let finished = done[TrialKey(trial.combination, trial.size, trial.repetition, rate: trial.rate)] {
                records.append(finished)
                continue
            }
            observer.sweepWillRunOpenLoopTrial(index, of: order.count, combination: trial.combination, rate: trial.rate, poolSize: trial.size, repetition: trial.repetition)
            let openLoop = plan.openLoopTrial(arrival, rate: trial.rate, taskNanoseconds: taskNanoseconds)
            guard let record = try measureTrial(
                combination: trial.combination, size: trial.size, repetition: trial.repetition, index: index,
                plan: plan, settings: settings, openLoop: openLoop, observer: observer, retryBudget: &retryBudget) else { continue }
            records.append(record)
            try observer.sweepFinishedTrial(record)
        }
        return records
    }
}
