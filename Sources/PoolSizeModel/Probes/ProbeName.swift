/// The platform claims `poolsize probe` can check, one probe each (docs/platform.md,
/// platform" and the pool design it describes).
package enum ProbeName: String, CaseIterable, Codable, Sendable {
    /// Effective nice of each QoS tier, on serial queues and on the global queues.
    case nice
    /// N serial queues with blocking tasks use N threads.
    case serialThreads = "serial-threads"
    /// How fast the global queue adds threads when its tasks block.
    case globalRamp = "global-ramp"
    /// `sync` onto the serial queue that is already running the caller deadlocks or traps.
    case deadlock
    /// The queue pool's round-robin hands the same number of tasks to every queue.
    case roundRobin = "round-robin"
    /// A counting semaphore caps concurrency at its count.
    case semaphore

    /// The claim the probe checks, as one line.
    package var claim: String {
        switch self {
        case .nice: return "each QoS tier runs its workers at its own nice value"
        case .serialThreads: return "N serial queues with blocking tasks use N threads"
        case .globalRamp: return "the global queue adds at most ~1 thread/s when its tasks block"
        case .deadlock: return "sync onto the current serial queue deadlocks (or traps)"
        case .roundRobin: return "the queue pool's round-robin spreads tasks evenly"
        case .semaphore: return "a counting semaphore caps concurrency at its count"
        }
    }

    /// `nice, serial-threads, …`: for error messages and help.
    package static var validNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
