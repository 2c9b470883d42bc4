import PoolSizeModel
import PoolSizeObserve

extension OpenMetricsExport {
    /// `poolsize export OBSERVATION_DIR --to openmetrics`: an observation's pools as gauges, each
    /// labelled with the target's program, its pid, the host and the pool: threads, CPU, the
    /// five shares, busy and W/C and N as `bound="low"`/`"high"` pairs, Q/C, the verdict (one
    /// sample of 1 with the verdict as a label) and, with a task rate, the per-task figures.
    package static func serialize(_ run: ObservationRun) -> String {
        let observation = run.observation
        let runLabels = [
            ("target", run.program), ("pid", String(observation.target.pid)),
            ("host", run.info?.machine?.hostname ?? "unknown"),
        ]
        var threads = Family(name: "poolsize_observed_threads", help: "Most threads of the pool alive at one sweep.")
        var cpu = Family(
            name: "poolsize_observed_cpu_cores", help: "CPU the pool's threads used, in cores (CPU seconds per second)."
        )
        var share = Family(
            name: "poolsize_observed_share_ratio",
            help: "Share of the pool's thread time: running, runnable, blocked_io, ambiguous or idle; they sum to 1.",
            unit: "ratio")
        var busy = Family(
            name: "poolsize_observed_busy_ratio",
            help: "Busy share: running + runnable + known IO (low), up to that plus the ambiguous waits (high).",
            unit: "ratio")
        var queue = Family(name: "poolsize_observed_queue_cpu_ratio", help: "Run-queue time per CPU time (Q/C).")
        var wait = Family(
            name: "poolsize_observed_wait_cpu_ratio",
            help: "W/C: known IO per CPU (low), up to known IO plus ambiguous waits per CPU (high).")
        var size = Family(
            name: "poolsize_observed_size_queues",
            help: "cores (or an interpreter lock's parallelism) x U x (1 + W/C) over W/C's range.")
        var verdict = Family(
            name: "poolsize_observed_verdict",
            help:
                "1 for the pool's verdict (oversized, aboutRight, undersized, cpuSaturated, lockContended, queueing or "
                + "undetermined).")
        var rate = Family(
            name: "poolsize_observed_throughput_per_second",
            help: "Tasks per second through the pool (--throughput or --counter).")
        var taskCPU = Family(
            name: "poolsize_observed_task_cpu_seconds", help: "CPU per task: the pool's CPU over the task rate.",
            unit: "seconds")
        var taskWait = Family(
            name: "poolsize_observed_task_wait_seconds",
            help: "Wait per task: known-IO threads over the task rate (low), up to IO plus ambiguous (high).",
            unit: "seconds")
        var needed = Family(
            name: "poolsize_observed_threads_needed",
            help: "N(lambda) = lambda (C + W): threads busy on average at the task rate.")
        for pool in observation.pools {
            let labels = runLabels + [("pool", pool.name)]
            let bounds = { (range: ValueRange) in
                [(labels + [("bound", "low")], range.low), (labels + [("bound", "high")], range.high)]
            }
            threads.samples.append((labels, Double(pool.threads)))
            cpu.samples.append((labels, pool.cpuCores))
            for estimate in pool.shares {
                share.samples.append((labels + [("share", shareLabel(estimate.kind))], estimate.fraction))
            }
            busy.samples += bounds(pool.busy)
            if let ratio = pool.queueToCPU { queue.samples.append((labels, ratio)) }
            if let ratio = pool.waitToCPU { wait.samples += bounds(ratio) }
            if let range = pool.size { size.samples += bounds(range) }
            var verdictLabels = labels + [("verdict", pool.verdict.kind.rawValue)]
            if let reason = pool.verdict.reason { verdictLabels.append(("reason", reason.rawValue)) }
            verdict.samples.append((verdictLabels, 1))
            if let task = pool.perTask {
                rate.samples.append((labels, task.throughputPerSecond))
                taskCPU.samples.append((labels, task.cpuSeconds))
                taskWait.samples += bounds(task.waitSeconds)
                needed.samples += bounds(task.threadsNeeded)
            }
        }
        let duration = Family(
            name: "poolsize_observed_duration_seconds", help: "Length of the observation.", unit: "seconds",
            samples: [(runLabels, observation.durationSeconds)])
        let cost = Family(
            name: "poolsize_observer_cpu_ratio", help: "The observer's sampling CPU as a share of one core.",
            unit: "ratio", samples: [(runLabels, observation.sampler.fractionOfOneCore)])
        let cores = Family(
            name: "poolsize_cores",
            help: "Cores the sizes assume (the target's affinity and cgroup quota, or --parallelism).",
            samples: [(runLabels, Double(observation.cores.effective))])
        return render([
            threads, cpu, share, busy, queue, wait, size, verdict, rate, taskCPU, taskWait, needed, duration, cost,
            cores,
        ]) + "# EOF\n"
    }

    /// `blocked_io`: a share's label value, as the CSV columns name it.
    static func shareLabel(_ kind: ShareKind) -> String {
        switch kind {
        case .running: "running"
        case .runnable: "runnable"
        case .blockedIO: "blocked_io"
        case .ambiguous: "ambiguous"
        case .idle: "idle"
        }
    }
}
