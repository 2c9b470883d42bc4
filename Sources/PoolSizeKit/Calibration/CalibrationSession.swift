import Dispatch
import PoolSizeModel

/// One calibration run's state: the measurements so far and the caveats met on the way.
/// `CalibrationRunner` drives it one group of operations at a time.
final class CalibrationSession {
    let runner: CalibrationRunner
    let observer: (any CalibrationObserver)?
    let planner: RoundPlanner
    private(set) var measurements: [CalibrationMeasurement] = []
    private(set) var notes: [String] = []
    private var started = 0

    init(runner: CalibrationRunner, observer: (any CalibrationObserver)?) {
        self.runner = runner
        self.observer = observer
        self.planner = RoundPlanner(roundNanoseconds: UInt64(runner.settings.roundMilliseconds * 1_000_000))
        #if DEBUG
            notes.append(
                "this binary was built without optimization: loop overhead inflates the nanosecond rows; build with -c release (scripts/poolsize does)"
            )
        #endif
    }

    func willMeasure(_ operation: CalibrationOperation) {
        observer?.calibrationWillMeasure(operation, index: started, of: CalibrationOperation.all.count)
        started += 1
    }

    func record(_ operation: CalibrationOperation, _ rounds: [Double], _ method: String) throws(PoolSizeError) {
        let measurement = CalibrationMeasurement(operation, rounds: rounds, method: method)
        measurements.append(measurement)
        try observer?.calibrationMeasured(measurement, notes: notes)
    }

    func note(_ text: String) { notes.append(text) }

    /// One timed operation's rounds: how many iterations a round needs (`RoundPlanner`, at most
    /// `limit`), then the runner's rounds of that many; the count and each round's value.
    func timedRounds<T>(
        limit: Int = 1 << 26, _ timed: (Int) throws(PoolSizeError) -> UInt64,
        round: (Int) throws(PoolSizeError) -> T
    ) throws(PoolSizeError) -> (count: Int, values: [T]) {
        let count = try planner.iterations(limit: limit, timed)
        return (count, try runner.rounds { () throws(PoolSizeError) in try round(count) })
    }

    func measureThreads() throws(PoolSizeError) {
        willMeasure(.threadCreateToStart)
        let (count, values) = try timedRounds(limit: 2_000) { n throws(PoolSizeError) in
            try ThreadCostBenchmark.timed(count: n)
        } round: { n throws(PoolSizeError) in
            try ThreadCostBenchmark.round(count: n)
        }
        try record(
            .threadCreateToStart, values.map(\.toStart),
            "median of \(count) pthread_create calls per round, to the entry point's first clock read")
        willMeasure(.threadCreateJoin)
        try record(
            .threadCreateJoin, values.map(\.createJoin),
            "median of \(count) pthread_create + pthread_join of an empty thread per round")
    }

    func measureLocks() throws(PoolSizeError) {
        let bench = LockCostBenchmark()
        var monitor: [Double] = []
        for kind in CalibrationOperation.lockKinds {
            let operation = CalibrationOperation.lock(kind)
            willMeasure(operation)
            guard let section = PrimitiveFactory.make(kind) else { continue }
            let (count, values) = try timedRounds { n in
                LockCostBenchmark.time(section, n)
            } round: { n in
                bench.round(section, count: n)
            }
            monitor += values.map(\.monitor)
            try record(
                operation, values.map(\.net),
                "\(count) uncontended enter + leave per round, minus the integrity monitor timed alone")
        }
        if let m = RoundPlanner.median(monitor) as Double?, m.isFinite {
            note(
                "lock rows are net of the sweep's integrity check, \(String(format: "%.1f", m)) ns per section (timed as the unprotected section)"
            )
        }
        let atomics: [(CalibrationOperation, (Int) -> UInt64, String)] = [
            (
                .compareAndSwap, LockCostBenchmark.compareAndSwap,
                "successful compareExchange on one Atomic<Int> per round"
            ),
            (.atomicAdd, LockCostBenchmark.atomicAdd, "wrappingAdd on one Atomic<Int> per round"),
        ]
        for (operation, timed, what) in atomics {
            willMeasure(operation)
            let (count, values) = try timedRounds { n in
                timed(n)
            } round: { n in
                Double(timed(n)) / Double(n)
            }
            try record(operation, values, "\(count) \(what)")
        }
    }

    func measureHandoffs() throws(PoolSizeError) {
        let cpus = PosixThread.firstAllowedCPUs()
        guard let first = cpus.first else {
            note("the affinity mask could not be read: context switch and wake-up not measured")
            return
        }
        let second = cpus.count > 1 ? cpus[1] : first
        if second == first { note("only one CPU is allowed: the wake-up row is a context switch on that CPU") }
        let plans: [(CalibrationOperation, (initiator: Int, responder: Int), String)] = [
            (.contextSwitch, (first, first), "both threads pinned to CPU \(first)"),
            (.crossCPUWakeup, (first, second), "threads pinned to CPUs \(first) and \(second)"),
        ]
        for (operation, pair, place) in plans {
            willMeasure(operation)
            let (count, values) = try timedRounds(limit: 200_000) { n throws(PoolSizeError) in
                try HandoffBenchmark.timed(count: n, cpus: pair)
            } round: { n throws(PoolSizeError) in
                try HandoffBenchmark.round(count: n, cpus: pair)
            }
            if values.contains(where: { !$0.pinned }) {
                note("the kernel refused to pin the ping-pong threads: \(operation.label) ran unpinned")
            }
            try record(
                operation, values.map(\.perSwitch),
                "\(count) token round trips per round through two POSIX semaphores, \(place); half a round trip each")
        }
    }

    func measureDispatch() throws(PoolSizeError) {
        let queues: [(CalibrationOperation, DispatchQueue, String)] = [
            (.dispatchSerialStart, DispatchQueue(label: "poolsize.calibrate.serial"), "a serial queue"),
            (.dispatchGlobalStart, DispatchQueue.global(), "DispatchQueue.global()"),
        ]
        for (operation, queue, name) in queues {
            willMeasure(operation)
            let (count, values) = try timedRounds(limit: 100_000) { n throws(PoolSizeError) in
                try DispatchStartBenchmark.timed(queue: queue, count: n)
            } round: { n throws(PoolSizeError) in
                try DispatchStartBenchmark.round(queue: queue, count: n)
            }
            try record(
                operation, values,
                "median of \(count) async submissions per round to \(name), each waited for before the next")
        }
        try measureHarness()
    }

    /// The harness's cost per task: each round runs a sweep trial and the raw-dispatch
    /// reference, one round length (at least 10 ms) each, on one serial queue with empty tasks, and takes
    /// 1/trial − 1/reference throughput. The reference runs first on even rounds.
    func measureHarness() throws(PoolSizeError) {
        willMeasure(.harnessCostPerTask)
        // At least 10 ms, so a 1 ms --round-ms still leaves a window of thousands of tasks.
        let milliseconds = max(10, runner.settings.roundMilliseconds)
        let length = UInt64(milliseconds * 1_000_000)
        let settings = TrialSettings(durationNanoseconds: length, warmupFraction: 0.2, drainTimeoutSeconds: 10)
        var round = 0
        let values = try runner.rounds { () throws(PoolSizeError) -> Double in
            round += 1
            var trial = 0.0, reference = 0.0
            for side in round % 2 == 0 ? [false, true] : [true, false] {
                if side {
                    let pool = QueuePool(size: 1)
                    let m = try TrialRunner().run(pool: pool, workload: EmptyWorkload(), settings: settings)
                    pool.shutdown()
                    trial = TrialMetrics(m, cores: 1).throughputPerSecond
                } else {
                    // Through the same pool's submit, as the trial resubmits (docs/guide/harness-overhead.md).
                    let pool = QueuePool(size: 1)
                    reference = try RawDispatchReference().run(
                        pool: pool, workload: EmptyWorkload(), settings: settings
                    ).throughputPerSecond
                    pool.shutdown()
                }
            }
            guard trial > 0, reference > 0 else {
                throw .measurementFailed(
                    "the harness or the raw-dispatch reference completed no task in \(UnitFormat.number(milliseconds)) ms; raise \(PoolSizeError.Parameter.roundMilliseconds.mention)"
                )
            }
            return (1 / trial - 1 / reference) * 1e9
        }
        try record(
            .harnessCostPerTask, values,
            "per round, a sweep trial and plain dispatch of empty tasks on one serial queue, 2 in flight, \(UnitFormat.number(milliseconds)) ms each: 1/trial − 1/plain throughput"
        )
    }

    func measureMemory() throws(PoolSizeError) {
        let batch = runner.settings.threadsPerMemoryRound
        let memory = ThreadMemoryBenchmark()
        defer { memory.releaseAll() }
        willMeasure(.idleThreadRSS)
        let values = try runner.rounds { () throws(PoolSizeError) in try memory.addThreads(batch) }
        try record(
            .idleThreadRSS, values.map(\.rss),
            "RSS growth (/proc/self/statm) per thread over batches of \(batch) blocked threads, earlier batches kept alive"
        )
        willMeasure(.kernelStackPerThread)
        let kernel = values.compactMap(\.kernelStack)
        if kernel.count == values.count {
            try record(
                .kernelStackPerThread, kernel,
                "growth of KernelStack in /proc/meminfo (system-wide) per thread over the same batches")
            note(
                "Apple's 1 KB is the kernel's per-thread data structures; on Linux the kernel stack alone is larger (task_struct and the rest are not counted)"
            )
        } else {
            note("/proc/meminfo has no KernelStack line: kernel memory per thread not measured")
        }
        willMeasure(.defaultStackSize)
        if let size = PosixThread.defaultStackSize() {
            try record(
                .defaultStackSize, [Double(size)],
                "pthread_getattr_default_np: the stack a thread gets without attributes (from RLIMIT_STACK)")
            note(
                "the default stack is reserved address space, not memory: an idle thread's resident cost is the RSS row"
            )
        } else {
            note("pthread_getattr_default_np failed: default stack size not read")
        }
    }
}
