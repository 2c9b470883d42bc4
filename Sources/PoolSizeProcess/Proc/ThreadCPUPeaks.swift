/// How long each thread of a process and its descendants had been busy, as last seen: on a
/// CPU, or runnable and waiting for one (schedstat's first two fields; stat's CPU ticks where
/// the kernel keeps no schedstat). Sampled while the process runs (a thread's figures are gone
/// from /proc once it exits), so that the busiest thread's share of the run can be told
/// afterwards: a load tool whose event loop never waited for the server was the limit, whether
/// it spent that time computing or waiting for a core other work held.
package struct ThreadCPUPeaks: Sendable {
    /// Per thread id, the most busy time seen, nanoseconds.
    private var seen: [Int32: UInt64] = [:]

    /// No thread seen yet.
    package init() {}

    /// Reads the busy time of every thread of `pid` and of its descendants now.
    package mutating func sample(tree pid: Int32) {
        var pending = [pid], visited = Set<Int32>()
        while let process = pending.popLast() {
            guard visited.insert(process).inserted else { continue }
            for tid in ProcReader.ids(in: "/proc/\(process)/task") {
                let base = "/proc/\(process)/task/\(tid)/"
                let busy =
                    ProcReader.text(base + "schedstat").flatMap(ProcText.schedstat).map {
                        $0.cpuNanoseconds + $0.runQueueNanoseconds
                    } ?? ProcReader.text(base + "stat").flatMap(ProcText.stat).map { $0.cpuTicks * 10_000_000 }
                if let busy { seen[tid] = max(seen[tid] ?? 0, busy) }
            }
            pending += ProcReader.taskChildren(of: process)
        }
    }

    /// The busiest thread's busy time, seconds; nil when no thread was seen.
    package var busiestSeconds: Double? { seen.values.max().map { Double($0) / 1e9 } }
}
