import PoolSizeStats

/// Decides an adaptive pool's size from one measured window at a time; pure, no clocks, so it is
/// tested on scripted windows (docs/guide/adaptive-pool.md).
///
/// What it knows that run-time controllers such as .NET's hill climbing do not is each task's
/// own C and W, so cores × (1 + W/C) gives the size at once and the throughput only has to
/// confirm it. In order, at the end of each window:
/// 1. **Starvation**: every queue blocked through the window with work waiting — double at
///    once; no throughput is needed to see that.
/// 2. **A probe under way** is judged once it has `probeWindows` windows: +10% must have bought
///    more than 1.5% (and more than twice the noise), −10% may have cost no more than that.
/// 3. **A growth under confirmation**: one that did not buy 1.5% per 10% goes back to the size
///    it came from, measured again: when that size now carries 10% less than before, the
///    workload changed under the growth (a backend slowed down) and what was learnt is
///    forgotten; otherwise the growth is cut back to where the throughput says its curve stopped
///    rising, and the formula is not trusted to grow the pool again until the workload changes
///    (a lock or a server outside the pool limits it).
/// 4. **The formula**: grow to it at once while work waits and the CPUs are not saturated;
///    shrink toward it by at most `shrinkStep` while they are (grow fast, shrink slowly).
///    Run-queue time is not W, so a saturated pool's estimate is not inflated by its own excess.
/// 5. **Probes**, only while work waits (else throughput measures the arrivals, not the pool):
///    up (never while the CPUs are saturated) and down. A refusal stops probing both ways for a
///    back-off that doubles with each refusal, so a flat plateau cannot make the size creep and a
///    settled pool turns a few times a minute at most; each probe kept in a row takes a longer
///    step, so a long walk takes a few probes.
///
/// Window lengths are drawn from a seeded generator, so two pools never decide in step.
package struct AdaptiveController {
    /// The controller's bounds and thresholds.
    package let settings: AdaptiveSettings
    /// The size in force.
    package private(set) var size: Int
    /// Seconds of windows seen.
    package private(set) var elapsedSeconds = 0.0
    /// The workload's W/C and C, from sampled tasks.
    package private(set) var estimate = WaitCPUEstimate()
    private var history = ThroughputHistory()
    private var generator: SeededGenerator
    /// Windows ended since the size last changed; the first of them is a transition.
    private var windowsAtSize = 0
    private var probe: Probe?
    private var growth: Growth?
    private var recheck: Recheck?
    /// Growing above this size was shown not to pay, until `until`.
    private var ceiling: Bound?
    /// Shrinking below this size was shown to cost, until `until`.
    private var floor: Bound?
    /// The wait after a refused probe, shared by both ways: it doubles with each refusal and is
    /// not reset by a kept probe, so a noisy plateau gets probed ever more rarely.
    private var backoff: Double
    private var upAllowedAt: Double
    private var downAllowedAt: Double
    private var shrinkVotes = 0
    /// Probes kept in a row each way: each doubles the next step (up to `maximumProbeStep`), so
    /// a long walk along a slope or a plateau takes a few probes, not dozens.
    private var upStreak = 0
    private var downStreak = 0
    /// The way the last refused probe went: the next probe tries the other way first.
    private var lastRefusedUp = false
    /// A growth to the formula did not pay (a lock or a server outside the pool limits the
    /// curve): until the workload changes, only probes grow the pool.
    private var formulaRefuted = false

    struct Probe: Equatable {
        var up: Bool
        var from: Int
        var baseline: ThroughputHistory.Stats
    }

    struct Growth: Equatable {
        var from: Int
        var baseline: Double
    }

    /// A growth that did not pay, while the size it came from is measured again.
    struct Recheck: Equatable {
        var from: Int
        var grown: Int
        var baseline: Double
        var ratio: Double
    }

    struct Bound: Equatable {
        var size: Int
        var until: Double
    }

    /// A controller starting at `initialSize` (the core count when nil), drawing its window
    /// lengths from `generator`.
    package init(settings: AdaptiveSettings, initialSize: Int? = nil, generator: SeededGenerator) {
        self.settings = settings
        self.size = settings.clamp(initialSize ?? settings.cores)
        self.generator = generator
        backoff = settings.backoffSeconds
        upAllowedAt = 0
        downAllowedAt = 0
        // The formula acts from the first window; probes wait until it has.
        upAllowedAt = jittered(settings.backoffSeconds)
        downAllowedAt = jittered(settings.backoffSeconds)
    }

    /// Length of the next window: the mean interval, spread by the seeded generator.
    package mutating func nextInterval() -> Double { jittered(settings.intervalSeconds) }

    /// `seconds` spread by ± `intervalSpread`: window lengths and back-offs alike, so two pools
    /// that started together drift apart instead of probing at the same moments.
    private mutating func jittered(_ seconds: Double) -> Double {
        let spread = settings.intervalSpread
        return seconds * (1 - spread + 2 * spread * generator.nextUnit())
    }

    /// cores × (1 + W/C) within the bounds, once enough tasks were sampled.
    package var formulaSize: Int? {
        guard estimate.tasks >= settings.minimumSamples, let ratio = estimate.waitCPURatio else { return nil }
        let exact = SizingFormula.queueCount(cores: Double(settings.cores), targetUtilization: 1, waitCPURatio: ratio)
        // Rounded up: a queue too few costs 1/N of the throughput, one too many nearly nothing.
        return settings.clamp(Int((exact - 1e-6).rounded(.up)))
    }

    /// The size for the next window, from the window that just ended at `size`.
    package mutating func decide(_ window: AdaptiveWindow) -> AdaptiveDecision {
        elapsedSeconds += window.seconds
        let factor = settings.regimeChangeFactor
        let samples = settings.minimumSamples
        if estimate.add(window, size: size, regimeFactor: factor, minimumSamples: samples) { forgetSizes() }
        // The first window after a change mixes two sizes: it counts for W/C, not for comparing sizes.
        if windowsAtSize > 0 { history.add(window.throughputPerSecond, size: size) }
        windowsAtSize += 1
        if let bound = ceiling, elapsedSeconds >= bound.until { ceiling = nil }
        if let bound = floor, elapsedSeconds >= bound.until { floor = nil }
        let saturated =
            window.cpuUtilization >= settings.saturatedUtilization
            || (window.sampledTasks > 0 && window.runQueueShare >= settings.saturatedRunQueueShare)
        // Tasks in the pool, running or waiting: more queues than that have nothing to run.
        let demand = window.busyQueues + window.waitingNow

        if window.everyQueueBlocked, window.waitingPeak > 0, window.cpuUtilization < settings.saturatedUtilization {
            let target = settings.clamp(min(2 * size, max(size + 1, demand)))
            if target > size {
                probe = nil
                growth = nil
                recheck = nil
                ceiling = nil
                return resize(target, .starvation)
            }
        }
        if let probe { return judge(probe) }
        if let recheck, let decision = judge(recheck) { return decision }
        if let growth, let decision = confirm(growth) { return decision }
        if let decision = followFormula(window, saturated: saturated, demand: demand) { return decision }
        if let decision = startProbe(window, saturated: saturated, demand: demand) { return decision }
        return keep(.hold)
    }

    /// Post-transition windows at the current size, enough to judge it.
    private var measuredEnough: Bool { windowsAtSize - 1 >= settings.probeWindows }

    private mutating func judge(_ probe: Probe) -> AdaptiveDecision {
        let measured = windowsAtSize - 1
        guard measured >= settings.probeWindows, let now = history.stats(at: size, last: measured) else {
            return keep(.hold)
        }
        let base = probe.baseline
        let change = base.mean > 0 ? now.mean / base.mean - 1 : (now.mean > 0 ? .infinity : 0)
        let threshold = settings.probeGain * abs(Double(size) / Double(probe.from) - 1) / settings.probeStep
        let spread = (now.standardError * now.standardError + base.standardError * base.standardError).squareRoot()
        let noise = base.mean > 0 ? 2 * spread / base.mean : 0
        // Past the threshold but within the noise: measure longer before deciding.
        let unsure =
            probe.up
            ? change > threshold && change <= noise
            : -change > threshold && -change <= threshold + noise
        if unsure && measured < 2 * settings.probeWindows { return keep(.hold) }
        self.probe = nil
        if probe.up { return end(probe, kept: change > threshold && change > noise) }
        let best = history.best(last: settings.probeWindows)
        if -change <= threshold + (unsure ? noise : 0) && now.mean >= (1 - settings.bestTolerance - noise) * best {
            // The larger size did not pay: do not grow back to it for a while.
            ceiling = Bound(size: size, until: elapsedSeconds + jittered(backoff))
            return end(probe, kept: true)
        }
        return end(probe, kept: false)
    }

    /// Ends a probe alike either way: kept, the size stays and the streak that way grows;
    /// refused, that streak ends, the probed side is barred for a while (`ceiling` above a
    /// probe up, `floor` below one down) and the pool goes back to `from`.
    private mutating func end(_ probe: Probe, kept: Bool) -> AdaptiveDecision {
        let allowedAt: WritableKeyPath<Self, Double> = probe.up ? \.upAllowedAt : \.downAllowedAt
        let streak: WritableKeyPath<Self, Int> = probe.up ? \.upStreak : \.downStreak
        let bound: WritableKeyPath<Self, Bound?> = probe.up ? \.ceiling : \.floor
        if kept {
            self[keyPath: allowedAt] = elapsedSeconds
            self[keyPath: streak] += 1
            return keep(.probeKept)
        }
        self[keyPath: streak] = 0
        lastRefusedUp = probe.up
        let until = refused()
        self[keyPath: bound] = Bound(size: probe.from, until: until)
        return resize(probe.from, .probeReverted)
    }

    /// Holds while a growth is measured; then keeps it, or, when it did not pay, goes back to
    /// `from` to measure that size again (`judge(_: Recheck)`). Nil once confirmed, so the other
    /// rules go on.
    private mutating func confirm(_ growth: Growth) -> AdaptiveDecision? {
        guard measuredEnough, let now = history.stats(at: size, last: settings.probeWindows) else { return keep(.hold) }
        self.growth = nil
        let ratio = growth.baseline > 0 ? now.mean / growth.baseline : .infinity
        let needed = settings.probeGain / settings.probeStep * (Double(size) / Double(growth.from) - 1)
        guard ratio - 1 < needed else { return nil }
        recheck = Recheck(from: growth.from, grown: size, baseline: growth.baseline, ratio: ratio)
        return resize(growth.from, .recheck)
    }

    /// Holds while the size a growth came from is measured again; then either forgets what was
    /// learnt (that size now carries `recheckDrop` less: the workload changed, so the growth was
    /// judged against another workload's throughput) or cuts the growth back to `from` × the
    /// throughput ratio (+ a probe step), where a curve rising linearly from `from` would have
    /// flattened, and distrusts the formula. Nil when the rules after it should decide.
    private mutating func judge(_ recheck: Recheck) -> AdaptiveDecision? {
        guard measuredEnough, let now = history.stats(at: size, last: settings.probeWindows) else { return keep(.hold) }
        self.recheck = nil
        if now.mean < recheck.baseline * (1 - settings.recheckDrop) {
            forgetSizes()
            return nil
        }
        formulaRefuted = true
        let useful = Int((Double(recheck.from) * max(1, recheck.ratio) * (1 + settings.probeStep)).rounded(.up))
        let target = settings.clamp(min(recheck.grown, max(recheck.from, useful)))
        // Growing to this size did not pay; between it and the cut, probes find out.
        ceiling = Bound(size: recheck.grown, until: elapsedSeconds + settings.backoffCapSeconds)
        upAllowedAt = elapsedSeconds
        downAllowedAt = elapsedSeconds
        return target != size ? resize(target, .trimmed) : keep(.hold)
    }

    private mutating func followFormula(_ window: AdaptiveWindow, saturated: Bool, demand: Int) -> AdaptiveDecision? {
        guard let formula = formulaSize else { return nil }
        if !saturated, !formulaRefuted, window.waitingPeak > 0 {
            let target = min(formula, ceiling?.size ?? settings.maximum, max(size, demand))
            if target > size, Double(target) > Double(size) * (1 + settings.formulaMargin) {
                let before = history.stats(at: size, last: settings.probeWindows)?.mean ?? window.throughputPerSecond
                growth = Growth(from: size, baseline: before)
                shrinkVotes = 0
                return resize(target, .formula)
            }
        }
        guard saturated, Double(size) > Double(formula) * (1 + settings.formulaMargin) else {
            shrinkVotes = 0
            return nil
        }
        shrinkVotes += 1
        guard shrinkVotes >= settings.shrinkWindows else { return keep(.hold) }
        shrinkVotes = 0
        let step = max(1, Int(Double(size) * settings.shrinkStep))
        let target = settings.clamp(max(formula, floor?.size ?? settings.minimum, size - step))
        return target < size ? resize(target, .shrink) : nil
    }

    private mutating func startProbe(_ window: AdaptiveWindow, saturated: Bool, demand: Int) -> AdaptiveDecision? {
        // Throughput measures the pool only while work waits for it: otherwise it measures the
        // arrivals, and a probe down would pass until the queueing showed in latency instead.
        guard measuredEnough, window.waitingPeak > 0 else { return nil }
        guard let baseline = history.stats(at: size, last: settings.probeWindows) else { return nil }
        func step(_ streak: Int) -> Int {
            max(1, Int(Double(size) * min(settings.maximumProbeStep, settings.probeStep * Double(1 << min(streak, 8)))))
        }
        let up = min(settings.maximum, demand, ceiling?.size ?? Int.max, size + step(upStreak))
        let down = max(settings.minimum, floor?.size ?? settings.minimum, size - step(downStreak))
        let canGrow = !saturated && up > size && elapsedSeconds >= upAllowedAt
        let canShrink = down < size && elapsedSeconds >= downAllowedAt
        // After a refusal the other way goes first, so a refused probe up is followed by a walk
        // down the plateau rather than by the same refusal again.
        if canGrow && !(canShrink && lastRefusedUp) {
            probe = Probe(up: true, from: size, baseline: baseline)
            return resize(up, .probeUp)
        }
        if canShrink {
            probe = Probe(up: false, from: size, baseline: baseline)
            return resize(down, .probeDown)
        }
        return nil
    }

    /// A probe was refused: the back-off doubles, and no probe either way starts until it has
    /// passed (a turn back is the last turn for a while). Returns when it ends.
    private mutating func refused() -> Double {
        backoff = min(2 * backoff, settings.backoffCapSeconds)
        let until = elapsedSeconds + jittered(backoff)
        upAllowedAt = max(upAllowedAt, until)
        downAllowedAt = max(downAllowedAt, until)
        return until
    }

    /// A new workload: what was learnt about sizes no longer holds.
    private mutating func forgetSizes() {
        history.reset()
        probe = nil
        growth = nil
        recheck = nil
        ceiling = nil
        floor = nil
        shrinkVotes = 0
        upStreak = 0
        downStreak = 0
        formulaRefuted = false
        backoff = settings.backoffSeconds
        upAllowedAt = elapsedSeconds + jittered(settings.backoffSeconds)
        downAllowedAt = elapsedSeconds + jittered(settings.backoffSeconds)
    }

    private mutating func resize(_ target: Int, _ reason: AdaptiveDecision.Reason) -> AdaptiveDecision {
        if target != size {
            size = target
            windowsAtSize = 0
        }
        return keep(reason)
    }

    private mutating func keep(_ reason: AdaptiveDecision.Reason) -> AdaptiveDecision {
        // Until the estimate rests on `minimumSamples` tasks the formula cannot act, and a window
        // without it measures little: quarter windows let a batch submitted at once reach the
        // formula's size within a few task times instead of a few windows.
        let interval = formulaSize == nil ? nextInterval() / 4 : nextInterval()
        return AdaptiveDecision(size: size, reason: reason, nextIntervalSeconds: interval)
    }
}
