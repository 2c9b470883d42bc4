/// The /proc texts of one thread read at one instant, as read: what a recording keeps
/// (Tests/Fixtures/observe/) and what `ThreadReading` parses, live or replayed.
package struct RawThreadTexts: Equatable, Sendable, Codable {
    /// The process (a child's, with `--children`).
    package var pid: Int32
    /// The thread.
    package var tid: Int32
    /// `/proc/PID/task/TID/stat`.
    package var stat: String
    /// `/proc/PID/task/TID/schedstat`; nil when the kernel has none.
    package var schedstat: String?
    /// `/proc/PID/task/TID/syscall`; nil when not read (the thread was running) or unreadable.
    package var syscall: String?
    /// The errno of an unreadable syscall file (EACCES).
    package var syscallErrno: Int32?
    /// The link of `/proc/PID/fd/N` for the descriptor the blocking call waits on.
    package var descriptor: String?
    /// The socket that descriptor is, from the target's socket tables.
    package var socket: SocketEndpoint?
    /// `/proc/PID/task/TID/status`, read when the thread is first seen and at the last sweep only (it is long).
    package var status: String?
    /// The descriptors a multiplexed wait (epoll_wait, poll, select) watches: epoll's from
    /// `/proc/PID/fdinfo/EPFD`, poll's and select's from the call's arrays in `/proc/PID/mem`.
    /// At most `waitSetLimit`, and only the listening socket once one is found (it decides);
    /// nil when the call is another or its set could not be read.
    package var waitSet: [RawDescriptor]?
    /// How many descriptors the set holds when more than `waitSet` lists.
    package var waitSetSize: Int?

    /// The most descriptors of a wait set kept.
    package static let waitSetLimit = 64

    /// Texts of one read.
    package init(
        pid: Int32, tid: Int32, stat: String, schedstat: String?, syscall: String? = nil, syscallErrno: Int32? = nil,
        descriptor: String? = nil, socket: SocketEndpoint? = nil, status: String? = nil,
        waitSet: [RawDescriptor]? = nil, waitSetSize: Int? = nil
    ) {
        self.pid = pid
        self.tid = tid
        self.stat = stat
        self.schedstat = schedstat
        self.syscall = syscall
        self.syscallErrno = syscallErrno
        self.descriptor = descriptor
        self.socket = socket
        self.status = status
        self.waitSet = waitSet
        self.waitSetSize = waitSetSize
    }
}
