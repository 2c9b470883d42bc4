/// Who sets a pool's size while a trial runs: the one property the shared stages (the sweep's
/// plan, the recommender, the console, the report and its caveats) ask of a pool kind instead of
/// naming a kind. A new owner (a server whose thread count a command sets by restarting it, a pool
/// whose tasks each hold a database connection) lands as a case here, and the compiler names each
/// switch that must decide for it (docs/architecture.md, "Who sets a pool's size").
package enum SizeOwner: String, CaseIterable, Sendable {
    /// The sweep: a fixed pool built at each size of the sweep, holding it for the whole trial.
    case sweep
    /// The pool itself: it chooses its size as it runs, at most the trial's size
    /// (`AdaptiveQueuePool`). The trial's size is its maximum, so it is summarised, never sized.
    case pool
    /// The command that starts the server under test (`sweep --server`): the server is started
    /// with the trial's size and holds it for the whole trial; its threads are not poolsize's.
    case command

    /// Whether poolsize sees how many tasks the pool runs at once (its own pools' workers), so
    /// that a pool that never reached its size can be told; a server's threads are its own.
    package var showsConcurrency: Bool {
        switch self {
        case .sweep, .pool: return true
        case .command: return false
        }
    }

    /// Whether the pool runs at the trial's size for the whole trial, so that the trials trace a
    /// throughput curve over the size: what a recommendation, a USL fit and "could not reach N"
    /// need.
    package var holdsTrialSize: Bool {
        switch self {
        case .sweep, .command: return true
        case .pool: return false
        }
    }
}
