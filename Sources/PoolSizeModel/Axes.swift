/// The executors a sweep can size. Only `queuePool` is the design the project grew from;
/// the others are there to show how the optimum moves with the executor.
public enum PoolKind: String, CaseIterable, Codable, Sendable {
    /// N serial DispatchQueues of one QoS, handed out round-robin (the seed design).
    case queuePool = "queue-pool"
    /// N plain threads taking tasks from one shared blocking queue.
    case threadPool = "thread-pool"
    /// DispatchQueue.global(qos:) with at most N tasks in flight (a counting semaphore).
    case globalQueue = "global-queue"
    /// OperationQueue with maxConcurrentOperationCount = N.
    case operationQueue = "operation-queue"
    /// Swift concurrency: a task group keeping N child tasks in flight.
    case taskGroup = "task-group"
    /// `AdaptiveQueuePool`: serial queues whose count it chooses while it runs, N at most.
    case adaptive
    /// The pool inside a server poolsize starts (`sweep --server`): the threads its command
    /// sets, the server restarted at each size and loaded over HTTP.
    case server
    /// The concurrency of the user's own load tool run alone (`sweep --load` without
    /// `--server`): the connections or clients its command sets with `{size}`, such as
    /// `pgbench -c {size}` sizing a database's connection pool.
    case loadTool = "load-tool"

    /// The kinds poolsize builds in its own process: what `--pools` and `all` choose from.
    package static let inProcess: [PoolKind] = allCases.filter { $0 != .server && $0 != .loadTool }

    /// One line for `poolsize list`.
    public var summary: String {
        switch self {
        case .queuePool: return "N serial DispatchQueues of one QoS, handed out round-robin (the seed design)"
        case .threadPool: return "N threads on one shared blocking task queue"
        case .globalQueue: return "DispatchQueue.global(qos:) with at most N tasks in flight"
        case .operationQueue: return "OperationQueue with maxConcurrentOperationCount = N"
        case .taskGroup: return "Swift concurrency task group with N child tasks in flight"
        case .adaptive: return "serial queues whose count the pool chooses as it runs, at most N (AdaptiveQueuePool)"
        case .server: return "the pool inside a server the sweep starts with {size} threads and loads over HTTP"
        case .loadTool: return "the concurrency of your own load tool, run alone with {size} as each trial's size"
        }
    }
}

/// libdispatch quality-of-service tiers, highest first.
public enum QoSTier: String, CaseIterable, Codable, Sendable {
    /// Work the user is interacting with; libdispatch on Linux folds it into user-initiated.
    case userInteractive = "user-interactive"
    /// Work the user started and waits for (legacy priority `high`).
    case userInitiated = "user-initiated"
    /// The default tier (legacy priority `default`).
    case `default` = "default"
    /// Long-running work the user knows about (legacy priority `low`).
    case utility = "utility"
    /// Work the user does not see (legacy priority `background`).
    case background = "background"

    /// Legacy dispatch priorities accepted as aliases (docs/platform.md: high → user-initiated,
    /// default → default, low → utility, background → background).
    public static let aliases: [String: QoSTier] = ["high": .userInitiated, "low": .utility]

    /// Parses a tier name or a legacy alias, case-insensitively.
    public init?(name: String) {
        let key = name.lowercased()
        if let tier = QoSTier(rawValue: key) {
            self = tier
        } else if let tier = Self.aliases[key] {
            self = tier
        } else {
            return nil
        }
    }

    /// The nice value libdispatch's Linux workers run this tier at (docs/platform.md). What a
    /// worker actually gets is measured and recorded; this is the request.
    public var requestedNice: Int32 {
        switch self {
        case .userInteractive, .userInitiated: return -2
        case .default: return 0
        case .utility: return 2
        case .background: return 10
        }
    }

    /// One line for `poolsize list`.
    public var summary: String {
        switch self {
        case .userInteractive: return "UI work; nice -2 on Linux (folded into user-initiated), needs privileges"
        case .userInitiated: return "user-started work (alias high); nice -2, needs privileges"
        case .default: return "the default tier (alias default); nice 0"
        case .utility: return "long-running visible work (alias low); nice +2"
        case .background: return "invisible maintenance work (alias background); nice +10"
        }
    }
}

/// Synchronization primitives guarding each task's critical section.
public enum PrimitiveKind: String, CaseIterable, Codable, Sendable {
    /// No critical section at all.
    case none
    /// Synchronization.Mutex.
    case mutex
    /// pthread_mutex_t (default attributes).
    case pthreadMutex = "pthread-mutex"
    /// NSRecursiveLock.
    case recursiveMutex = "recursive-mutex"
    /// NSLock.
    case nslock
    /// NSCondition used as a lock.
    case nscondition
    /// DispatchSemaphore(value: 1) used as a lock.
    case semaphore
    /// DispatchQueue.sync on one serial queue.
    case serialQueue = "serial-queue"
    /// Concurrent queue: reads with sync, writes with a barrier.
    case barrier
    /// pthread_rwlock_t.
    case rwlock
    /// Test-and-test-and-set spinlock on an Atomic, with exponential backoff.
    case spinlock
    /// A lock-free Atomic add: the baseline.
    case atomic
    /// No protection at all: exists to prove the integrity check catches a race.
    case unprotected
}

extension PrimitiveKind {
    /// One line for `poolsize list`.
    public var summary: String {
        switch self {
        case .none: return "no critical section"
        case .mutex: return "Synchronization.Mutex"
        case .pthreadMutex: return "pthread_mutex_t with default attributes"
        case .recursiveMutex: return "NSRecursiveLock"
        case .nslock: return "NSLock"
        case .nscondition: return "NSCondition used as a lock"
        case .semaphore: return "DispatchSemaphore(value: 1) used as a lock"
        case .serialQueue: return "DispatchQueue.sync on one serial queue"
        case .barrier:
            return
                "concurrent queue: reads with sync, writes with a barrier (\(PoolSizeError.Parameter.readRatio.mention))"
        case .rwlock:
            return "pthread_rwlock_t: readers share, writers exclude (\(PoolSizeError.Parameter.readRatio.mention))"
        case .spinlock: return "test-and-test-and-set on an Atomic with exponential backoff"
        case .atomic: return "lock-free Atomic add: the baseline"
        case .unprotected: return "no protection: exists to show the integrity check catching a race"
        }
    }
}
