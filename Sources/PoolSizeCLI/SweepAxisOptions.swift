import ArgumentParser
import PoolSizeModel

/// Which pools, QoS tiers and primitives a sweep crosses, and what guards each task.
struct SweepAxisOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.pool, valueName: "pool"))
    var pool: String?

    @Option(help: ArgumentHelp(Help.qos))
    var qos: String = "default"

    @Option(
        help: "Synchronization primitives guarding each task's critical section: all, or a list (see 'poolsize list').")
    var primitive: String = "none"

    @Option(name: .customLong("critical-us"), help: "Critical section length in µs (default: the spec's critical_us).")
    var criticalMicroseconds: Double?

    @Option(
        name: .customLong("read-ratio"),
        help: "Share of critical sections that only read, for barrier and rwlock, in [0, 1].")
    var readRatio: Double = 0.5

    @Flag(help: "Also run every selected tier at once on a CPU-saturating workload and report each tier's share.")
    var contend = false

    /// The flags of poolsize's own pools, each with whether it was given: a sweep of a pool
    /// outside poolsize (a server's, a load tool's) refuses each one given.
    var ownPoolFlags: [(flag: String, given: Bool)] {
        [
            ("--pool", pool != nil), ("--qos", qos != "default"), ("--primitive", primitive != "none"),
            ("--critical-us", criticalMicroseconds != nil), ("--contend", contend),
        ]
    }

    /// The axes, checked; `--critical-us` against the workload's CPU time per task, which it is a part of.
    /// Without `--pool`, a database sweep's pool is a thread pool: N plain threads, each keeping
    /// the connection it holds, as an application's connection pool is used; any other sweep's, the
    /// queue pool.
    func resolve(spec: inout WorkloadSpec, database: Bool = false) throws(PoolSizeError) -> SweepAxes {
        let axes = SweepAxes(
            pools: try AxisSelection.pools(pool ?? (database ? "thread-pool" : "queue-pool")),
            tiers: try AxisSelection.tiers(qos),
            primitives: try AxisSelection.primitives(primitive))
        if let criticalMicroseconds {
            guard criticalMicroseconds >= 0 && criticalMicroseconds <= spec.cpuMicroseconds else {
                let cpu = UnitFormat.significant(spec.cpuMicroseconds)
                throw .invalidOption(
                    flag: "--critical-us",
                    message:
                        "must be between 0 and the workload's cpu_us (\(cpu)), got \(UnitFormat.significant(criticalMicroseconds))"
                )
            }
            spec.criticalMicroseconds = criticalMicroseconds
        }
        guard readRatio >= 0 && readRatio <= 1 else {
            throw .invalidOption(
                flag: "--read-ratio", message: "must be in [0, 1], got \(readRatio); write 0.9 for 90% reads")
        }
        return axes
    }

    private enum Help {
        static let pool = """
            Pool kinds: all, or a list of queue-pool, thread-pool, global-queue, operation-queue, task-group, \
            adaptive (N is its maximum). (default: queue-pool; thread-pool with --postgres)
            """
        static let qos = """
            QoS tiers: all, or a list of user-interactive, user-initiated, default, utility, background \
            (aliases high, low).
            """
    }
}
