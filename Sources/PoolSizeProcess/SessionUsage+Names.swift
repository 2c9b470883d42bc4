import Foundation

extension SessionUsage {
    /// The name (comm) of each thread of `processes`, by thread id: what tells a server's pool
    /// apart from its other threads (an event loop, a JIT compiler, a collector). A thread that
    /// ended meanwhile is left out.
    package static func threadNames(processes: [Int32]) -> [Int32: String] {
        var names: [Int32: String] = [:]
        for pid in processes {
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
                continue
            }
            for task in tasks {
                guard let tid = Int32(task), let name = threadName(tid) else { continue }
                names[tid] = name
            }
        }
        return names
    }

    /// The name of thread `tid` (any thread: /proc/TID answers for threads that are not a
    /// process's leader too), without its newline; nil when it has ended.
    package static func threadName(_ tid: Int32) -> String? {
        text("/proc/\(tid)/comm").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }
}
