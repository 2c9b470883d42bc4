/// What one thread was doing at one sampled instant, as far as can be told from outside.
package enum SampleClass: String, CaseIterable, Sendable, Codable {
    /// On a CPU or waiting for one (state R); schedstat splits the two exactly.
    case running
    /// Blocked in known IO: a read, write, recv or send on a socket (not a client's
    /// connection), pipe, file or device, poll, select or epoll_wait on sockets to servers
    /// only, connect, disk (state D), waiting for a child (wait4).
    case blockedIO
    /// Waiting for work: accept, epoll_wait, poll or select on a set holding a listening
    /// socket (an acceptor, an event loop), a signal wait.
    case idle
    /// Parked where a wait for work and a wait inside a task look the same: futex (locks,
    /// condition variables, an idle executor's queue), sleeps, IPC waits, epoll_wait, poll or
    /// select on pipes, wake-ups or a client's connection, a read on a client's connection,
    /// anything unreadable.
    case ambiguous
}
