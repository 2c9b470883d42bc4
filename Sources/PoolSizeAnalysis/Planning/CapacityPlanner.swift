import PoolSizeStats
import PoolSizeModel

/// Turns a task's W and C, a target rate and the hosts' shape into threads per host and hosts,
/// with the queueing figures that say what that capacity feels like at the target rate.
///
/// - Threads per host: N = cores × U × (1 + W/C) (Goetz, *Java Concurrency in Practice* §8.2),
///   rounded up: the pool needs that many threads to keep U of the cores busy while tasks wait.
/// - Hosts: ceil(λ × (1 + headroom) / (cores × U / C)): each host completes cores × U / C tasks
///   per second before its CPUs pass U.
/// - Queueing: each host is an M/M/c queue whose c = cores serve CPU bursts of mean C, fed
///   λ / hosts (Erlang C; Kleinrock, *Queueing Systems* vol. 1, 1975, ch. 3); tasks in the system
///   by Little's law L = λW (Little, Operations Research 9(3), 1961).
package enum CapacityPlanner {
    /// Larger answers are a unit mistake (`--cpu 5ns`), not a plan.
    package static let maximumHosts = 1_000_000
    package static let maximumThreadsPerHost = 1_000_000
    package static let maximumCoresPerHost = 4096

    package static func plan(_ input: PlanInputs) throws(PoolSizeError) -> CapacityPlan {
        try validate(input)
        let (w, c, rate) = (input.waitSeconds, input.cpuSeconds, input.targetRatePerSecond)
        let cores = Double(input.coresPerHost)
        let threadsExact = SizingFormula.queueCount(
            cores: cores, targetUtilization: input.targetUtilization, waitCPURatio: w / c)
        let capacity = cores * input.targetUtilization / c
        let hostsExact = rate * (1 + input.headroom) / capacity
        guard threadsExact <= Double(maximumThreadsPerHost) else {
            throw .invalidParameter(
                .waitSeconds,
                message:
                    "W/C = \(UnitFormat.number(w / c)) asks for \(UnitFormat.number(threadsExact)) threads per host; check the units of \(PoolSizeError.Parameter.waitSeconds.mention) and \(PoolSizeError.Parameter.cpuSeconds.mention) (40ms, 5ms)"
            )
        }
        guard hostsExact <= Double(maximumHosts) else {
            throw .invalidParameter(
                .targetRatePerSecond,
                message:
                    "\(UnitFormat.rate(rate)) needs \(UnitFormat.number(hostsExact)) hosts of \(input.coresPerHost) cores; check the rate's unit (1200/s, 72000/min)"
            )
        }
        let threads = roundUp(threadsExact)
        let hosts = max(1, roundUp(hostsExact))
        let perHost = rate / Double(hosts)
        let queue = queueFigures(input, threads: threads, perHost: perHost)

        var plan = CapacityPlan(
            threadsPerHost: threads, hosts: hosts, utilization: perHost * c / cores,
            waitSeconds: w, cpuSeconds: c, waitCPURatio: w / c, targetRatePerSecond: rate,
            coresPerHost: input.coresPerHost,
            targetUtilization: input.targetUtilization, headroom: input.headroom, threadsExact: threadsExact,
            capacityPerHostPerSecond: capacity, ratePerHostPerSecond: perHost, queue: queue, slo: nil, measured: nil,
            source: input.measuredRun?.path ?? "declared", assumptions: [], warnings: [])
        plan.slo = sloCheck(input, plan: plan)
        plan.measured = input.measuredRun.map { compare(plan, with: $0) }
        return plan
    }

    /// ceil that forgives the last bits of a product meant to be whole: 8 × 1 × (1 + 0.04/0.005)
    /// must give 72 even if the Doubles land on 72.000000000000014.
    package static func roundUp(_ value: Double) -> Int {
        let nearest = value.rounded()
        return Int(saturating: abs(value - nearest) <= 1e-9 * max(1, abs(value)) ? nearest : value.rounded(.up))
    }

    static func queueFigures(_ input: PlanInputs, threads: Int, perHost: Double) -> QueueFigures? {
        let (w, c, cores, p) = (input.waitSeconds, input.cpuSeconds, input.coresPerHost, input.sloPercentile)
        guard let wait = Queueing.mmcMeanWait(servers: cores, arrivalRate: perHost, serviceRate: 1 / c),
            let waitPercentile = Queueing.mmcWaitQuantile(
                servers: cores, arrivalRate: perHost, serviceRate: 1 / c, percentile: p)
        else { return nil }
        let response = w + c + wait
        let inSystem = Queueing.littlesLaw(arrivalRate: perHost, timeInSystem: response)
        return QueueFigures(
            busyCores: perHost * c, waitProbability: Queueing.erlangC(servers: cores, offeredLoad: perHost * c),
            meanQueueingDelaySeconds: wait, meanResponseSeconds: response, responsePercentile: p,
            responsePercentileSeconds: w + c + waitPercentile, tasksInSystemPerHost: inSystem,
            tasksInSystemTotal: Queueing.littlesLaw(arrivalRate: input.targetRatePerSecond, timeInSystem: response),
            tasksQueuedForCPUPerHost: Queueing.littlesLaw(arrivalRate: perHost, timeInSystem: wait),
            threadWaitProbability: Queueing.erlangC(servers: threads, offeredLoad: inSystem))
    }

    static func sloCheck(_ input: PlanInputs, plan: CapacityPlan) -> SLOCheck? {
        guard let slo = input.latencySLOSeconds else { return nil }
        let budget = slo - input.waitSeconds - input.cpuSeconds  // ≥ 0: validate refuses the rest
        let holds = plan.queue.map { $0.responsePercentileSeconds <= slo } ?? false
        let meets = { (hosts: Int) -> Bool in
            let wait = Queueing.mmcWaitQuantile(
                servers: input.coresPerHost, arrivalRate: input.targetRatePerSecond / Double(hosts),
                serviceRate: 1 / input.cpuSeconds, percentile: input.sloPercentile)
            return wait.map { $0 <= budget } ?? false
        }
        // Waits fall as hosts are added (each gets less load), so search by doubling, then bisect.
        var (low, high) = (plan.hosts - 1, plan.hosts)
        while !meets(high), high <= plan.hosts * maximumHosts { (low, high) = (high, high * 2) }
        let found = meets(high)
        while found, high - low > 1 {
            let middle = (low + high) / 2
            if meets(middle) { high = middle } else { low = middle }
        }
        let cores =
            holds
            ? nil
            : Queueing.minimumServers(
                arrivalRate: plan.ratePerHostPerSecond, serviceRate: 1 / input.cpuSeconds,
                waitLimit: (percentile: input.sloPercentile, seconds: budget), maximumServers: 100_000)
        // Output words the advice (PlanProse).
        return SLOCheck(
            latencySeconds: slo, percentile: input.sloPercentile, holds: holds, hostsNeeded: found ? high : nil,
            coresPerHostNeeded: cores, advice: "")
    }

    static func compare(_ plan: CapacityPlan, with run: MeasuredRun) -> MeasuredComparison {
        let ratio: Double? =
            if let knee = run.kneePoolSize, let formula = run.formulaQueueCountExact, formula > 0 {
                Double(knee) / formula
            } else { nil }
        let k = Double(plan.coresPerHost) * plan.targetUtilization
        return MeasuredComparison(
            run: run, kneeToFormula: ratio,
            kneeAdjustedThreadsPerHost: ratio.map { max(1, roundUp(plan.threadsExact * $0)) },
            threadsPerHostLower: run.waitCPURatioLower.map { max(1, roundUp(k * (1 + max(0, $0)))) },
            threadsPerHostUpper: run.waitCPURatioUpper.map { max(1, roundUp(k * (1 + $0))) })
    }
}
