import PoolSizeModel
import Synchronization

/// What a trial does around each task body, in a closed loop or an open one: the worker's
/// thread id and nice (cached per thread), the clocks around the body, the first failures, and
/// the task's sample.
///
/// Its per-task cost is what docs/guide/harness-overhead.md measures, and no task writes a line
/// another thread reads: thread id and nice come from a thread-local cache, not two system
/// calls; the trial's last end and its peak of tasks running at once are found from the
/// samples afterwards, not with shared counters; samples go to one of at least as many buffers
/// as the trial has threads, chosen by thread id, each on cache lines of its own, so two workers
/// rarely touch the same lock or line (a worker preempted while holding a shared buffer's lock
/// would put the others to sleep on it).
final class TaskRecorder: Sendable {
    let workload: any Workload
    let clocks: any MeasurementClocks
    /// Tags this trial for the per-thread cache of id and nice (`WorkerThread.facts`).
    let generation = WorkerThread.nextGeneration()
    /// The workload reports each body's thread CPU (`Workload.measuresOwnCPU`).
    let selfTimed: Bool
    /// A task that starts right after the thread's last one ended takes its starting CPU
    /// reading from that end (`carriedCPU`): the thread-CPU clock is a system call, and under
    /// load one of the dearest parts of a short task's harness (it takes the run queue's lock).
    let chainsCPUReads: Bool
    /// The first few failures' reasons, for the message that stops a failing sweep.
    let failures = Mutex<[String]>([])
    /// Tasks whose body has ended, counted only when `countsCompletions` (the open loop's
    /// dispatcher reads the backlog from it; the closed loop spares the shared write).
    let completed = PaddedCounter()
    let countsCompletions: Bool
    private let stripes: [Stripe]

    final class Stripe: Sendable {
        private let before: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
        let samples = Mutex<[(index: UInt64, sample: TaskSample)]>([])
        private let after: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    }

    /// A recorder for tasks of `workload` run on about `threads` threads at once; CPU readings
    /// are carried between a thread's tasks when `chainsCPUReads` (by default on the system's
    /// clocks, not on scripted ones).
    init(
        workload: any Workload, clocks: any MeasurementClocks, threads: Int, countsCompletions: Bool = false,
        chainsCPUReads: Bool? = nil
    ) {
        self.workload = workload
        self.clocks = clocks
        self.countsCompletions = countsCompletions
        // Only on the real clocks: with scripted clocks (tests) the trial's clock is the truth.
        self.selfTimed = workload.measuresOwnCPU && clocks is SystemClocks
        self.chainsCPUReads = chainsCPUReads ?? (clocks is SystemClocks)
        // Pool threads made together have consecutive ids: a count of buffers no smaller than
        // the threads gives each its own.
        self.stripes = (0..<Self.stripeCount(threads: threads)).map { _ in Stripe() }
    }

    /// The longest wall-clock gap between a thread's last task's end and its next task's start
    /// over which the next task's starting CPU reading is carried from the last one's end.
    static let carryGapNanoseconds: UInt64 = 2_000

    /// The thread's CPU clock at `started`, worked out without reading it when the thread's last
    /// task of this trial ended at most `carryGapNanoseconds` before: its CPU reading at that end
    /// plus the gap, since a thread that a switch did not take off its core in so short a gap
    /// ran through all of it (a switch takes longer). Nil otherwise, and the clock is read.
    static func carriedCPU(from thread: WorkerThread.Facts, at started: UInt64) -> UInt64? {
        guard thread.lastEnded != 0, started >= thread.lastEnded else { return nil }
        let gap = started - thread.lastEnded
        return gap <= carryGapNanoseconds ? thread.lastCPU &+ gap : nil
    }

    /// The buffers for `threads` threads: a power of two of at least 16 and at least `threads`,
    /// at most 4096.
    static func stripeCount(threads: Int) -> Int {
        var count = 16
        while count < min(threads, 4096) { count *= 2 }
        return count
    }

    /// Runs task `index` on the calling pool thread and records it. `submitted` is when the task
    /// was handed to the pool (closed loop) or meant to arrive (open loop): its latency counts
    /// from there.
    func run(task index: UInt64, submitted: UInt64) {
        let thread = WorkerThread.facts(generation: generation)
        let started = clocks.wallNanoseconds()
        // A workload that reads the thread CPU clock itself (the synthetic task's burner)
        // reports C; two more reads here would cost two system calls per task.
        let cpu0: UInt64
        if selfTimed {
            cpu0 = 0
        } else if chainsCPUReads, let carried = Self.carriedCPU(from: thread, at: started) {
            cpu0 = carried
        } else {
            cpu0 = clocks.threadCPUNanoseconds()
        }
        let outcome = workload.execute(task: index)
        let cpu1 = selfTimed ? 0 : clocks.threadCPUNanoseconds()
        let ended = clocks.wallNanoseconds()
        if !selfTimed {
            thread.lastCPU = cpu1
            thread.lastEnded = ended
        }
        if countsCompletions { completed.value.wrappingAdd(1, ordering: .relaxed) }
        // C is the pool thread's CPU plus its children's: a command's CPU is the task's.
        var sample = TaskSample(
            submitted: submitted, started: started, ended: ended,
            cpuNanoseconds: (selfTimed ? outcome.cpuNanoseconds ?? 0 : (cpu1 > cpu0 ? cpu1 - cpu0 : 0))
                &+ outcome.childCPUNanoseconds,
            thread: thread.id, nice: thread.nice)
        sample.failed = outcome.failure != nil
        if let failure = outcome.failure { failures.withLock { if $0.count < 3 { $0.append(failure) } } }
        stripes[Int(UInt32(bitPattern: thread.id) % UInt32(stripes.count))].samples.withLock {
            $0.append((index, sample))
        }
    }

    /// Every recorded task, by start time.
    func samples() -> [TaskSample] {
        stripes.flatMap { stripe in stripe.samples.withLock { $0.map(\.sample) } }.sorted { $0.started < $1.started }
    }

    /// Calls `body` with the end of every task recorded since the last call with these
    /// `cursors` (one per buffer, from 0), while tasks go on being recorded; a buffer's lock is
    /// held only while its new ends are copied.
    func forEachNewEnd(cursors: inout [Int], _ body: (UInt64) -> Void) {
        if cursors.count != stripes.count { cursors = Array(repeating: 0, count: stripes.count) }
        var ends: [UInt64] = []
        for (index, stripe) in stripes.enumerated() {
            let from = cursors[index]
            stripe.samples.withLock { samples in
                guard samples.count > from else { return }
                for entry in samples[from...] { ends.append(entry.sample.ended) }
                cursors[index] = samples.count
            }
        }
        ends.forEach(body)
    }

    /// When each recorded task ended, by task index.
    func ends() -> [UInt64: UInt64] {
        var ends: [UInt64: UInt64] = [:]
        for stripe in stripes { stripe.samples.withLock { for entry in $0 { ends[entry.index] = entry.sample.ended } } }
        return ends
    }

    /// When the last recorded task ended (read once every task has finished).
    var lastEnd: UInt64 {
        stripes.reduce(0) { latest, stripe in stripe.samples.withLock { $0.reduce(latest) { max($0, $1.sample.ended) } }
        }
    }

    /// Most task bodies of `samples` running at once (a trial's peak concurrency, found once
    /// every task has finished): a body that ends when another starts does not overlap it. At
    /// least 1 when a task ran, even with clocks that never advance.
    static func peak(of samples: [TaskSample]) -> Int {
        guard !samples.isEmpty else { return 0 }
        let starts = samples.map(\.started).sorted(), ends = samples.map(\.ended).sorted()
        var running = 0, peak = 1, next = 0
        for start in starts {
            while next < ends.count && ends[next] <= start {
                running -= 1
                next += 1
            }
            running += 1
            peak = max(peak, running)
        }
        return peak
    }

    /// The first failures' reasons.
    var failureReasons: [String] { failures.withLock { $0 } }
}
