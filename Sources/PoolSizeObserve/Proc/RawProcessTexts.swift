import Foundation
import PoolSizeProcess

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

extension RawProcessTexts {
    /// What is read of process `pid` now: its parent, title, executable and shared objects (the
    /// sampler reads a process so once; a server sweep reads its server's working processes so
    /// at each trial, to recognise their runtime as observe does).
    package static func read(pid: Int32) -> RawProcessTexts {
        let status = try? ProcFile.readOnce("/proc/\(pid)/status").get()
        let parent = status.flatMap { ProcText.statusValue($0, key: "PPid") }.flatMap { Int32(exactly: $0) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        let executable =
            count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        let maps = try? ProcFile.readOnce("/proc/\(pid)/maps").get()
        return RawProcessTexts(
            pid: pid, parentPID: parent, cmdline: cmdline(pid: pid), executable: executable,
            sharedObjects: maps.map { ProcText.sharedObjects($0) })
    }

    /// `/proc/PID/cmdline` now without the NUL bytes a rewritten title leaves after itself;
    /// empty when gone.
    package static func cmdline(pid: Int32) -> String {
        var text = (try? ProcFile.readOnce("/proc/\(pid)/cmdline").get()) ?? ""
        while text.utf8.last == 0 { text.removeLast() }
        return text
    }
}
