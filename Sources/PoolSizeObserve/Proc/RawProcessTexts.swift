/// What the sampler read about each process it watched, as read when it was first seen and
/// again at the end (for a process still alive then): its command line (the process title,
/// which servers such as PostgreSQL and nginx rewrite), its executable and the shared libraries
/// it maps. Kept in a recording beside the sweeps so grouping by title and
/// recognising a runtime replay like the rest (`ProcessFacts` parses it).
package struct RawProcessTexts: Equatable, Sendable, Codable {
    /// The process.
    package var pid: Int32
    /// Its parent (`PPid:` of /proc/PID/status); nil when unread.
    package var parentPID: Int32?
    /// `/proc/PID/cmdline`, NUL bytes and all, as last read (a backend's title changes with its
    /// state).
    package var cmdline: String
    /// The `/proc/PID/exe` link; nil when unreadable (another user's process, a kernel thread).
    package var executable: String?
    /// The shared objects `/proc/PID/maps` maps (paths holding `.so`, each once); nil when unreadable.
    package var sharedObjects: [String]?

    /// Texts of one process.
    package init(
        pid: Int32, parentPID: Int32? = nil, cmdline: String, executable: String? = nil,
        sharedObjects: [String]? = nil
    ) {
        self.pid = pid
        self.parentPID = parentPID
        self.cmdline = cmdline
        self.executable = executable
        self.sharedObjects = sharedObjects
    }
}
