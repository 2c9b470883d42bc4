import PoolSizeStats
import PoolSizeModel

/// The plan in plain words: its assumptions, the SLO advice and the warnings. Kept apart from
/// the arithmetic so the numbers can be read without the sentences.
extension CapacityPlanner {
    static func assumptions(_ input: PlanInputs, plan: CapacityPlan) -> [String] {
        let (w, c) = (UnitFormat.duration(plan.waitSeconds), UnitFormat.duration(plan.cpuSeconds))
        var lines = [
            "Tasks arrive at random (a Poisson process) at \(UnitFormat.rate(plan.targetRatePerSecond)) in total, spread evenly over the hosts, and are independent of each other.",
            "Each host's \(plan.coresPerHost) cores serve CPU bursts as one M/M/c queue (Erlang C): bursts average C = \(c), vary exponentially, and wait for a free core in arrival order.",
            "The wait W = \(w) (I/O, sleeps, remote calls) overlaps freely with other tasks: it does not grow with load and is not behind a lock, a connection limit or a slower downstream.",
            "Threads per host follow N = cores × U × (1 + W/C) (Goetz, Java Concurrency in Practice §8.2); whether tasks queue for a thread is checked with Erlang C on the threads, each held for W + C plus the wait for a core.",
            "The response time is W + C plus the wait for a core; its p\(UnitFormat.number(input.sloPercentile)) adds that wait's percentile to the mean W and C, whose own spread is not modelled.",
            "Nothing else runs on the hosts' CPUs.",
        ]
        if plan.headroom > 0 {
            lines.append(
                "The \(UnitFormat.percent(plan.headroom)) headroom is spare capacity: hosts are sized for \(UnitFormat.rate(plan.targetRatePerSecond * (1 + plan.headroom))), and the queueing figures are for the target \(UnitFormat.rate(plan.targetRatePerSecond))."
            )
        }
        if let run = input.measuredRun {
            let machine = [run.cores.map { "\($0) cores" }, run.cpuModel].compactMap { $0 }.joined(separator: ", ")
            lines.append(
                "W and C were measured with one worker in \(run.path)\(machine.isEmpty ? "" : " (\(machine))"); on a different CPU C changes, and with it W/C."
            )
        }
        return lines
    }

    static func advice(_ check: SLOCheck, input: PlanInputs, plan: CapacityPlan) -> String {
        let name = "p\(UnitFormat.number(check.percentile))"
        let slo = UnitFormat.duration(check.latencySeconds)
        guard let queue = plan.queue else {
            return
                "At \(UnitFormat.percent(plan.utilization)) CPU utilization waits grow without bound, so the \(slo) SLO fails; \(remedy(check, input: input))."
        }
        let response = UnitFormat.duration(queue.responsePercentileSeconds)
        if check.holds {
            return
                "The \(name) response time \(response) is within the \(slo) SLO at \(UnitFormat.rate(plan.targetRatePerSecond))."
        }
        let waitPart = UnitFormat.duration(queue.responsePercentileSeconds - plan.waitSeconds - plan.cpuSeconds)
        return
            "The \(name) response time \(response) exceeds the \(slo) SLO: W + C take \(UnitFormat.duration(plan.waitSeconds + plan.cpuSeconds)) and the wait for a core adds \(waitPart) at \(UnitFormat.percent(plan.utilization)) utilization; \(remedy(check, input: input))."
    }

    /// "3 hosts or 12 cores per host (then 108 threads per host) would meet it".
    static func remedy(_ check: SLOCheck, input: PlanInputs) -> String {
        var options: [String] = []
        if let hosts = check.hostsNeeded { options.append("\(hosts) hosts of \(input.coresPerHost) cores") }
        if let cores = check.coresPerHostNeeded {
            let threads = roundUp(
                SizingFormula.queueCount(
                    cores: Double(cores), targetUtilization: input.targetUtilization,
                    waitCPURatio: input.waitSeconds / input.cpuSeconds))
            options.append("\(cores) cores per host (then \(threads) threads per host)")
        }
        return options.isEmpty ? "shorten C or relax the SLO" : options.joined(separator: " or ") + " would meet it"
    }

    static func warnings(_ plan: CapacityPlan) -> [String] {
        var lines: [String] = []
        guard let queue = plan.queue else {
            return [
                "At \(UnitFormat.percent(plan.utilization)) CPU utilization the queue for the cores is unstable and waits grow without bound; add a host, raise --headroom or lower --target-utilization."
            ]
        }
        if queue.tasksInSystemPerHost >= Double(plan.threadsPerHost) {
            lines.append(
                "By Little's law \(UnitFormat.number(queue.tasksInSystemPerHost)) tasks hold a thread on each host on average, not fewer than its \(plan.threadsPerHost) threads: tasks will queue for threads; raise the thread count or add hosts."
            )
        } else if queue.threadWaitProbability > 0.01 {
            lines.append(
                "\(UnitFormat.percent(queue.threadWaitProbability)) of tasks find all \(plan.threadsPerHost) threads busy (Erlang C on the threads) and wait for one; a few more threads remove that wait."
            )
        }
        if let ratio = plan.measured?.kneeToFormula, abs(ratio - 1) > Recommender.disagreementThreshold,
            let knee = plan.measured?.run.kneePoolSize, let formula = plan.measured?.run.formulaQueueCountExact
        {
            let direction =
                ratio < 1
                ? "earlier than the formula assumes (a lock, a shared resource or scheduling overhead)"
                : "later than the formula assumes (tasks waited longer under load)"
            lines.append(
                "The run's measured knee (\(knee)) was \(UnitFormat.number(ratio))× its formula (\(UnitFormat.number(formula))): its throughput curve bent \(direction); consider the knee-adjusted \(plan.measured?.kneeAdjustedThreadsPerHost ?? plan.threadsPerHost) threads per host."
            )
        }
        return lines
    }
}
