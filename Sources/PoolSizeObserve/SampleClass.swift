/// What one thread was doing at one sampled instant, as far as can be told from outside.
package enum SampleClass: String, CaseIterable, Sendable, Codable {
    /// On a CPU or waiting for one (state R); schedstat splits the two exactly.
    case running
    /// Blocked in known IO: a read, write, recv or send on a socket, pipe, file or device,
    /// poll or select on descriptors, connect, disk (state D), waiting for a child (wait4).
    case blockedIO
    /// Waiting for work: epoll_wait in an event loop, accept, a signal wait.
    case idle
    /// Parked where a wait for work and a wait inside a task look the same: futex (locks,
    /// condition variables, an idle executor's queue), sleeps, IPC waits, anything unreadable.
    case ambiguous
}
