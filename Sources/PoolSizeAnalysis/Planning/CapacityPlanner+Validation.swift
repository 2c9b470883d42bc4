import PoolSizeModel
extension CapacityPlanner {
    /// Refuses inputs that have no meaningful plan, naming the flag and a valid value
    /// (docs/conventions.md). W may be 0 (a purely CPU-bound task: N = cores × U); C may not, since a
    /// task that burns no CPU needs no cores and the formula divides by it.
    static func validate(_ input: PlanInputs) throws(PoolSizeError) {
        let (w, c) = (input.waitSeconds, input.cpuSeconds)
        guard c > 0, c.isFinite else {
            throw .invalidParameter(
                .cpuSeconds,
                message:
                    "must be greater than zero, got \(UnitFormat.duration(c)); every task burns some CPU, e.g. \(PoolSizeError.Parameter.cpuSeconds.mention) 5ms"
            )
        }
        guard w >= 0, w.isFinite else {
            throw .invalidParameter(
                .waitSeconds,
                message:
                    "must not be negative, got \(UnitFormat.duration(w)); write \(PoolSizeError.Parameter.waitSeconds.mention) 0ms for a task that never waits"
            )
        }
        guard input.targetRatePerSecond > 0, input.targetRatePerSecond.isFinite else {
            throw .invalidParameter(
                .targetRatePerSecond,
                message:
                    "must be greater than zero, got \(UnitFormat.rate(input.targetRatePerSecond)); write it like 1200/s"
            )
        }
        guard input.coresPerHost >= 1 else {
            throw .invalidParameter(.coresPerHost, message: "must be at least 1, got \(input.coresPerHost)")
        }
        guard input.coresPerHost <= maximumCoresPerHost else {
            throw .invalidParameter(
                .coresPerHost, message: "must be at most \(maximumCoresPerHost), got \(input.coresPerHost)")
        }
        guard input.targetUtilization > 0, input.targetUtilization <= 1 else {
            throw .invalidParameter(
                .targetUtilization,
                message: "must be in (0, 1], got \(UnitFormat.number(input.targetUtilization)); write 0.8 for 80%")
        }
        guard input.headroom >= 0, input.headroom.isFinite else {
            throw .invalidParameter(
                .headroom,
                message:
                    "must not be negative, got \(UnitFormat.percent(input.headroom)); write 30% (or 0.3) for 30% spare capacity"
            )
        }
        guard input.sloPercentile > 0, input.sloPercentile < 100 else {
            throw .invalidParameter(
                .sloPercentile,
                message: "must be in (0, 100), got \(UnitFormat.number(input.sloPercentile)); write 99 for p99")
        }
        guard let slo = input.latencySLOSeconds else { return }
        guard slo > 0, slo.isFinite else {
            throw .invalidParameter(
                .latencySLO, message: "must be greater than zero, got \(UnitFormat.duration(slo)); write it like 250ms")
        }
        // Queueing only adds to W + C: hosts and threads remove the wait for a core, never the
        // task's own time, so an SLO below W + C cannot be met by any plan.
        guard w + c <= slo else {
            throw .invalidParameter(
                .latencySLO,
                message:
                    "\(UnitFormat.duration(slo)) cannot be met: W + C alone take \(UnitFormat.duration(w + c)) per task before any queueing, and no number of hosts or threads shortens that; relax the SLO or shorten W or C"
            )
        }
    }
}
