/// The /proc texts of one thread read at one instant, as read: what a recording keeps
/// (Tests/Fixtures/observe/) and what `ThreadReading` parses, live or replayed.
public struct RawThreadTexts: Equatable, Sendable, Codable {
    /// The process (a child's, with `--children`).
    public var pid: Int32
    /// The thread.
    public var tid: Int32
    /// `/proc/PID/task/TID/stat`.
    public var stat: String
    /// `/proc/PID/task/TID/schedstat`; nil when the kernel has none.
    public var schedstat: String?
    /// `/proc/PID/task/TID/syscall`; nil when not read (the thread was running) or unreadable.
    public var syscall: String?
    /// The errno of an unreadable syscall file (EACCES).
    public var syscallErrno: Int32?
    /// The link of `/proc/PID/fd/N` for the descriptor the blocking call waits on.
    public var descriptor: String?
    /// The socket that descriptor is, from the target's socket tables.
    public var socket: SocketEndpoint?
    /// `/proc/PID/task/TID/status`, read when the thread is first seen and at the last sweep only (it is long).
    public var status: String?

    /// Texts of one read.
    public init(pid: Int32, tid: Int32, stat: String, schedstat: String?, syscall: String? = nil, syscallErrno: Int32? = nil, descriptor: String? = nil, socket: SocketEndpoint? = nil, status: String? = nil) {
        self.pid = pid
        self.tid = tid
        self.stat = stat
        self.schedstat = schedstat
        self.syscall = syscall
        self.syscallErrno = syscallErrno
        self.descriptor = descriptor
        self.socket = socket
        self.status = status
    }
}
