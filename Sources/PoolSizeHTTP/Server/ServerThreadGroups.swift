import PoolSizeObserve
import PoolSizeProcess
import PoolSizeStats

/// The server's threads by pool, as `observe` groups them (names without their trailing
/// numbers: `pool-1-thread-3` and `pool-1-thread-7` are one pool), and each pool's CPU per
/// request over the slices of the low-load window. The pool that serves the requests is the
/// one whose CPU is steadily the largest: the highest median over the slices, so that a JIT
/// compiler's or a collector's bursts in a few slices do not make it the pool.
struct ServerThreadGroups {
    /// Pool of each thread seen, by thread id.
    private var poolOf: [Int32: String] = [:]
    /// Per slice, each pool's CPU per request (µs); a pool without CPU in a slice has 0 there.
    private(set) var slices: [[String: Double]] = []

    /// The pool of thread `tid` as it is named now: read at every slice, since a thread names
    /// itself after it starts (seen first, a server's worker may still have the process's name),
    /// and the last name read stands for a thread that has exited.
    mutating func pool(of tid: Int32) -> String {
        if let name = ProcReader.threadName(tid) {
            let pool = PoolGrouping.stripped(name)
            poolOf[tid] = pool
            return pool
        }
        return poolOf[tid] ?? "?"
    }

    /// Adds a slice of `requests` answered requests between readings `before` and `after`.
    mutating func add(requests: Int, before: SessionUsage, after: SessionUsage) {
        guard requests > 0 else { return }
        var cpu: [String: Double] = [:]
        for (tid, now) in after.threadCPUNanoseconds {
            let earlier = before.threadCPUNanoseconds[tid] ?? 0
            cpu[pool(of: tid), default: 0] += Double(now >= earlier ? now - earlier : now) / 1_000 / Double(requests)
        }
        slices.append(cpu)
    }

    /// The pool serving the requests and its CPU per request in each slice; nil before a slice,
    /// or when the server has one pool only (its whole CPU is then that pool's).
    var servingPool: (name: String, cpuMicroseconds: [Double])? {
        Self.servingPool(slices)
    }

    /// The pool with the highest median CPU per request over `slices`, with its per-slice CPU;
    /// nil for no slice or a single pool. Ties go to the name first in order, so that the
    /// answer does not depend on a dictionary's order.
    static func servingPool(_ slices: [[String: Double]]) -> (name: String, cpuMicroseconds: [Double])? {
        let names = Set(slices.flatMap(\.keys)).sorted()
        guard names.count > 1 else { return nil }
        var best: (name: String, median: Double, cpu: [Double])? = nil
        for name in names {
            let cpu = slices.map { $0[name] ?? 0 }
            guard let median = percentile(cpu, 50) else { continue }
            if best == nil || median > best!.median { best = (name, median, cpu) }
        }
        return best.map { ($0.name, $0.cpu) }
    }
}
