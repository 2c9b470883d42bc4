/// Where a pool's thread time went: the five shares that sum to 1.
package enum ShareKind: String, CaseIterable, Sendable, Codable {
    /// On a CPU (schedstat's on-CPU time: C).
    case running
    /// Waiting on a run queue for a CPU (schedstat's run delay: Q). Never wait W: it means the
    /// CPUs are short, and more threads would make it worse.
    case runnable
    /// Blocked in known IO (off-CPU time split by samples).
    case blockedIO
    /// Parked where work and idleness look the same (futex, sleeps, unreadable).
    case ambiguous
    /// Waiting for work (epoll_wait, accept).
    case idle
}
