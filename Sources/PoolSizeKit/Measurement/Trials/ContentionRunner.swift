import Dispatch
import PoolSizeModel

/// `--contend`: one queue pool per tier, each wide enough to saturate the CPU alone, all running
/// the CPU-bound workload at the same time. With equal nice values each tier should get an
/// equal share; a tier whose nice took effect gets more or less (CFS weights nice levels about
/// 1.25× apart per step).
package struct ContentionRunner {
    package let clocks: any MeasurementClocks
    package let burner: CPUBurner

    package init(clocks: any MeasurementClocks = SystemClocks(), burner: CPUBurner) {
        self.clocks = clocks
        self.burner = burner
    }

    package func run(tiers: [QoSTier], cores: Int, seconds: Double, seed: UInt64) -> [TierShare] {
        let spec = BuiltinWorkloads.cpu
        let pools = tiers.map { QueuePool(size: cores, qos: $0, label: "poolsize.contend") }
        let chains = 2 * cores
        let loops = pools.map { pool in
            ClosedLoop(
                pool: pool, workload: SyntheticWorkload(times: TaskTimes(spec: spec, seed: seed), burner: burner),
                clocks: clocks, maxTasks: nil, chains: chains)
        }
        let t0 = clocks.wallNanoseconds()
        for _ in 0..<chains { for loop in loops { loop.launch() } }
        let warmup = UInt64(seconds * 0.2 * 1e9)
        let end = t0 + UInt64(seconds * 1e9)
        TrialRunner.sleep(until: end, clocks: clocks)
        for loop in loops { loop.stop.store(true, ordering: .sequentiallyConsistent) }
        for loop in loops { _ = loop.group.wait(timeout: .now() + 30) }
        for pool in pools { pool.shutdown() }
        let usage = clocks.processUsage()
        let throughputs = loops.map { loop in
            TrialMetrics(
                TrialMeasurement(
                    poolSize: cores, windowStart: t0 + warmup, windowEnd: end, usageAtStart: usage, usageAtEnd: usage,
                    samples: loop.recorder.samples(), peakConcurrency: 0, processThreads: nil), cores: cores)
        }
        let total = throughputs.map(\.throughputPerSecond).reduce(0, +)
        return zip(tiers, throughputs).map { tier, metrics in
            TierShare(
                qos: tier, throughputPerSecond: metrics.throughputPerSecond,
                share: total > 0 ? metrics.throughputPerSecond / total : 0, effectiveNice: metrics.effectiveNice)
        }
    }
}
