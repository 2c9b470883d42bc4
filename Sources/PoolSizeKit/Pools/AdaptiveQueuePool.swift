import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// The seed's round-robin pool of serial queues, with a queue count that follows the workload
/// between `minimum` and `maximum` (docs/guide/adaptive-pool.md).
///
/// ```swift
/// let pool = AdaptiveQueuePool(maximum: 64, qos: .utility)
/// pool.submit { download(file) }        // runs on one of `pool.size` serial queues
/// ```
///
/// Every ~100 ms (a seeded random length, so two pools never decide in step) a controller reads
/// what the queues measured: tasks finished, a sample of tasks' thread CPU time C, run-queue time
/// and the rest of their wall time W, the work waiting, and the process's CPU use. It moves the
/// count straight to cores × (1 + W/C), confirms the move by throughput, adds queues at once
/// when every queue is blocked with work waiting, never grows while no work waits or the CPUs
/// are saturated, and shrinks slowly. When it grows, work already waiting on its queues is dealt
/// to the new ones, so a queue added to a starved pool starts on waiting work at once.
///
/// `waitUntilIdle()` waits for the work submitted so far while the controller keeps deciding;
/// `shutdown()` does the same, then stops the controller. `status` says what the pool measured
/// and why it has the size it has.
public final class AdaptiveQueuePool: WorkerPool {
    /// Always `.adaptive`.
    public let kind = PoolKind.adaptive
    /// The tier every queue was created with.
    public let qos: QoSTier
    /// Fewest queues the pool keeps.
    public let minimum: Int
    /// Most queues the pool may have; all are created up front (an idle serial queue holds no thread).
    public let maximum: Int
    /// The queues, the size in force and the controller: what the timer works on.
    package let core: AdaptiveCore
    private let counter = Atomic<UInt>(0)
    // The timer source is thread-safe (libdispatch), but not annotated Sendable.
    nonisolated(unsafe) private let timer: (any DispatchSourceTimer)?
    private static let seeds = Atomic<UInt64>(0)

    /// A pool of `minimum`…`maximum` serial queues of `qos`, starting at the core count.
    /// - Parameters:
    ///   - label: prefix of the queues' labels (`<label>.<tier>.<index>`), as seen in debuggers.
    ///   - cores: cores the formula sizes for; the active processor count by default.
    ///   - seed: seeds the decision times; by default each pool of the process gets its own.
    public convenience init(
        minimum: Int = 1, maximum: Int, qos: QoSTier = .default, label: String = "poolsize.adaptive-pool",
        cores: Int = ProcessInfo.processInfo.activeProcessorCount, seed: UInt64? = nil
    ) {
        precondition(minimum >= 1 && maximum >= minimum, "an adaptive pool needs 1 ≤ minimum ≤ maximum queues")
        let settings = AdaptiveSettings(minimum: minimum, maximum: maximum, cores: cores)
        self.init(settings: settings, qos: qos, label: label, seed: seed)
    }

    /// A pool decided by `settings`; with `runsTimer` false nothing decides until `tick()` is
    /// called (tests script the windows' timing that way).
    package init(
        settings: AdaptiveSettings, qos: QoSTier = .default, label: String = "poolsize.adaptive-pool",
        seed: UInt64? = nil, clocks: any MeasurementClocks = SystemClocks(), runsTimer: Bool = true
    ) {
        self.qos = qos
        minimum = settings.minimum
        maximum = settings.maximum
        let slots = (0..<settings.maximum).map { AdaptiveSlot(label: "\(label).\(qos.rawValue).\($0)", qos: qos) }
        for slot in slots { slot.arm() }
        // Each pool of the process its own stream unless told: pools created together must not
        // decide at the same moments.
        let created = Self.seeds.wrappingAdd(1, ordering: .relaxed).newValue
        let seed = seed ?? 0x5EED_ADA9 &+ created &* 0x9E37_79B9_7F4A_7C15
        var controller = AdaptiveController(settings: settings, generator: SeededGenerator(seed: seed))
        // The first window only measures W/C (its throughput mixes the start with the work, and is
        // never compared), and the formula needs just `minimumSamples` tasks: a quarter window
        // lets a batch submitted at once grow after 25 ms instead of 100.
        let first = controller.nextInterval() / 4
        let core = AdaptiveCore(slots: slots, controller: controller, clocks: clocks)
        self.core = core
        guard runsTimer else {
            timer = nil
            return
        }
        let queue = DispatchQueue(label: "\(label).\(qos.rawValue).control", qos: .userInitiated)
        let source = DispatchSource.makeTimerSource(queue: queue)
        timer = source
        // The handler holds the core, never the pool: a weak reference to the pool would move its
        // reference counts to a side table, and every retain of it (a task resubmitting through
        // the pool) would take the slow path. Cancelling the timer (deinit, shutdown) releases it.
        source.setEventHandler { [core] in
            let decision = core.tick()
            source.schedule(deadline: .now() + decision.nextIntervalSeconds, leeway: .microseconds(500))
        }
        source.schedule(deadline: .now() + first, leeway: .microseconds(500))
        source.resume()
    }

    deinit {
        timer?.cancel()
        // Tokens hold their slot unowned: keep the slots until every queue has run its tokens.
        let slots = core.slots
        DispatchQueue.global().async {
            for slot in slots { slot.queue.sync {} }
        }
    }

    /// The number of queues new work is spread over now.
    public var size: Int { core.size }

    /// Runs `work` later on the next of the pool's serial queues, round-robin.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        let count = UInt(core.active.load(ordering: .relaxed))
        let ticket = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        core.slots[Int(ticket % count)].submit(work)
    }

    /// Waits until every task submitted so far has run, with the controller still deciding: a
    /// batch submitted at once is drained at the size the pool grows to, not at the size it had
    /// when the wait began. Work submitted while it waits (a task that submits more) is waited
    /// for too.
    public func waitUntilIdle() {
        core.waitUntilIdle(submitted: { UInt64(self.counter.load(ordering: .relaxed)) })
    }

    /// Waits until every task submitted so far has run, resizing as it runs (`waitUntilIdle()`),
    /// then stops the controller: the size stays as it is and the timer is released.
    public func shutdown() {
        waitUntilIdle()
        timer?.cancel()
        // Taking the lock waits for a decision under way; none changes the size after it.
        core.control.withLock { $0.stopped = true }
        core.drain()
    }

    /// What the pool measured and decided: its size, the tasks' C and W/C, the formula's size,
    /// the last window and the latest changes with their reasons. Read it to see why the pool
    /// did or did not grow.
    public var status: AdaptivePoolStatus { core.status(minimum: minimum, maximum: maximum) }

    /// Waits until every queue that was ever active has run what it was handed.
    package func drain() { core.drain() }

    /// What the pool decided so far: the size from each decision on, and the window's throughput.
    package var steps: [SizeStep] { core.steps }

    /// Moves the count to `target` (`AdaptiveCore.resize(to:)`).
    package func resize(to target: Int) { core.resize(to: target) }

    /// Ends the current window and applies the controller's decision (`AdaptiveCore.tick()`).
    @discardableResult
    package func tick() -> AdaptiveDecision { core.tick() }

    /// How often the queues time a task: every `sampleEvery`-th.
    package var sampleEvery: Int { core.slots[0].sampleEvery.load(ordering: .relaxed) }

    /// Work handed to the queues and not yet begun.
    package var waiting: Int { core.waiting }
}
