/// An operation `poolsize calibrate` times, with the reference values it is set against.
///
/// References: Apple's *Threading Programming Guide* ("Thread Costs" table; "Synchronization",
/// mutex and atomic operation costs), measured on a 2 GHz Core Duo iMac running OS X 10.5; and
/// the figures docs/platform.md recorded on this project's Linux machines. Apple's mutex figure is the
/// uncontested acquisition; calibrate times lock + unlock, so the ratio slightly flatters Apple.
package enum CalibrationOperation: Hashable, Sendable {
    /// pthread_create until the new thread's entry point runs.
    case threadCreateToStart
    /// pthread_create of an empty thread plus pthread_join.
    case threadCreateJoin
    /// Uncontended enter + leave of one primitive's critical section, net of the integrity check.
    case lock(PrimitiveKind)
    /// One successful compare-and-swap on an uncontended `Atomic<Int>`.
    case compareAndSwap
    /// One `wrappingAdd` on an uncontended `Atomic<Int>`.
    case atomicAdd
    /// Half a round trip of a token between two threads pinned to one CPU: a context switch.
    case contextSwitch
    /// Half a round trip of a token between threads pinned to two CPUs: a cross-CPU wake-up.
    case crossCPUWakeup
    /// `DispatchQueue.async` until the block starts, on a serial queue that has just run work.
    case dispatchSerialStart
    /// `DispatchQueue.async` until the block starts, on the global queue that has just run work.
    case dispatchGlobalStart
    /// What a sweep trial adds per task over plain dispatch: 1/trial − 1/reference throughput
    /// with empty tasks on one serial queue (docs/guide/harness-overhead.md).
    case harnessCostPerTask
    /// Resident memory a blocked thread adds to the process.
    case idleThreadRSS
    /// Kernel stack a thread adds (/proc/meminfo `KernelStack`, system-wide).
    case kernelStackPerThread
    /// The stack a thread gets from default pthread attributes.
    case defaultStackSize

    /// Every operation in table order; one lock row per primitive that is a lock.
    package static var all: [CalibrationOperation] {
        [.threadCreateToStart, .threadCreateJoin]
            + lockKinds.map { .lock($0) }
            + [
                .compareAndSwap, .atomicAdd, .contextSwitch, .crossCPUWakeup, .dispatchSerialStart,
                .dispatchGlobalStart,
                .harnessCostPerTask, .idleThreadRSS, .kernelStackPerThread, .defaultStackSize,
            ]
    }

    /// Primitives timed as locks: all but `none` (no section), `unprotected` (the baseline that
    /// is subtracted) and `atomic` (timed directly as the atomic add).
    package static var lockKinds: [PrimitiveKind] {
        PrimitiveKind.allCases.filter { ![.none, .unprotected, .atomic].contains($0) }
    }

    /// Stable machine name: CSV `operation_id` and JSON `id`.
    package var id: String {
        switch self {
        case .threadCreateToStart: return "thread_create_to_start"
        case .threadCreateJoin: return "thread_create_join"
        case let .lock(kind): return "lock_" + kind.rawValue.replacingOccurrences(of: "-", with: "_")
        case .compareAndSwap: return "compare_and_swap"
        case .atomicAdd: return "atomic_add"
        case .contextSwitch: return "context_switch"
        case .crossCPUWakeup: return "cross_cpu_wakeup"
        case .dispatchSerialStart: return "dispatch_async_to_start_serial"
        case .dispatchGlobalStart: return "dispatch_async_to_start_global"
        case .harnessCostPerTask: return "harness_cost_per_task"
        case .idleThreadRSS: return "idle_thread_rss"
        case .kernelStackPerThread: return "kernel_stack_per_thread"
        case .defaultStackSize: return "default_stack_size"
        }
    }

    /// What the table's first column says.
    package var label: String {
        switch self {
        case .threadCreateToStart: return "thread create → first instruction"
        case .threadCreateJoin: return "thread create + join"
        case let .lock(kind):
            return kind == .recursiveMutex ? "lock+unlock recursive-mutex (×2)" : "lock+unlock \(kind.rawValue)"
        case .compareAndSwap: return "compare-and-swap"
        case .atomicAdd: return "atomic add"
        case .contextSwitch: return "context switch (1 CPU)"
        case .crossCPUWakeup: return "wake-up on another CPU"
        case .dispatchSerialStart: return "async → start, serial queue"
        case .dispatchGlobalStart: return "async → start, global queue"
        case .harnessCostPerTask: return "harness cost per task (1 queue)"
        case .idleThreadRSS: return "RSS per idle thread"
        case .kernelStackPerThread: return "kernel stack per thread"
        case .defaultStackSize: return "default stack size"
        }
    }

    package var unit: CostUnit {
        switch self {
        case .idleThreadRSS, .kernelStackPerThread, .defaultStackSize: return .bytes
        default: return .nanoseconds
        }
    }

    /// Apple's figure for the operation, when the guide gives one.
    package var appleReference: Double? {
        switch self {
        case .threadCreateToStart: return 90_000
        case .lock: return 200
        case .compareAndSwap: return 50
        case .kernelStackPerThread: return 1_024  // "kernel data structures ≈ 1 KB"
        case .defaultStackSize: return 512 * 1_024  // secondary threads
        default: return nil
        }
    }

    /// The figure measured earlier on this project's machines, when it gives one.
    package var earlierReference: Double? {
        switch self {
        case .threadCreateJoin: return 46_000
        case .lock(.mutex), .lock(.pthreadMutex): return 25
        case .compareAndSwap: return 17
        default: return nil
        }
    }
}

/// The unit of a calibration value; CSV's `unit` column.
package enum CostUnit: String, Codable, Sendable {
    case nanoseconds = "ns"
    case bytes
}
