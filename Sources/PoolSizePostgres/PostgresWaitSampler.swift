import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Synchronization

/// One window's sampler, on a thread of its own with the monitoring connection: every
/// `interval` it reads `pg_stat_activity`'s function for the backends it watches (`Backends`)
/// and tallies each backend's class (`WaitClass`) and the most backends one snapshot saw; at
/// its start and end it reads the backends' CPU from /proc when the server is on this machine.
/// Its cost is one small query per interval whatever the pool size, and its tallies are
/// bounded by the connections.
final class PostgresWaitSampler: Sendable {
    /// What the window saw.
    struct Seen {
        var samples: [WaitClass: Int]
        var snapshots: Int
        var backendCPUSeconds: Double?
        /// Counted only for `.database`: a sweep's own connections stay open past their trial.
        var peakConnections: Int?
    }

    /// Whose backends are sampled.
    enum Backends: Sendable {
        /// A sweep's own connections, by PID; a backend counts only once it ran a command in
        /// the window (a connection left idle from a larger trial is not this trial's).
        case connections(ConnectionFreeList<PostgresConnection>)
        /// Every client backend of the monitor's database but the monitor's own: the pools of
        /// a server in front of it, idle connections included.
        case database
    }

    /// Between snapshots: often enough for a few hundred samples in a short trial, seldom
    /// enough that the sampler's backend stays a small share of one core.
    static let interval = DispatchTimeInterval.milliseconds(15)

    let backends: Backends
    let monitor: PostgresConnection?
    let readsBackendCPU: Bool
    private let stop = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let result = Mutex<Seen?>(nil)

    init(backends: Backends, monitor: PostgresConnection?, readsBackendCPU: Bool) {
        self.backends = backends
        self.monitor = monitor
        self.readsBackendCPU = readsBackendCPU
    }

    /// Starts sampling on a thread of its own.
    func start() {
        started.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            let seen = sample()
            result.withLock { $0 = seen }
            done.signal()
        }
        thread.name = "poolsize-pg-sampler"
        thread.start()
    }

    /// Stops sampling and waits for the thread (at most the query in flight); what it saw, or
    /// nil when it never started. Later calls return nil.
    func finish() -> Seen? {
        guard started.load(ordering: .sequentiallyConsistent),
            !finished.exchange(true, ordering: .sequentiallyConsistent)
        else { return nil }
        stop.signal()
        done.wait()
        return result.withLock { $0 }
    }

    private func sample() -> Seen {
        var cpuAtStart: [Int32: UInt64]? = nil
        if readsBackendCPU, case .connections(let connections) = backends {
            cpuAtStart = Self.cpuNanoseconds(connections.connections.map(\.backendPID))
        }
        var perBackend: [Int32: [WaitClass: Int]] = [:]
        var used = Set<Int32>()
        var lastSeen: [Int32] = []
        var snapshots = 0
        var peak = 0
        var countsIdle = false
        if case .database = backends { countsIdle = true }
        // The server's clock at the window's open: a backend whose last command started before it
        // and that is idle now did nothing in this window (a connection left from a larger trial).
        let opened = monitor?.value("SELECT clock_timestamp()::text")
        repeat {
            guard let monitor, let opened else { break }
            guard let sql = query(opened: opened) else { continue }
            guard let rows = monitor.rows(sql) else { break }
            snapshots += 1
            peak = max(peak, rows.count)
            lastSeen = rows.compactMap { $0.first.flatMap { Int32($0) } }
            if readsBackendCPU && cpuAtStart == nil { cpuAtStart = Self.cpuNanoseconds(lastSeen) }
            for row in rows where row.count == 4 {
                guard let pid = Int32(row[0]), let kind = WaitClass(state: row[1], waitEventType: row[2]) else {
                    continue
                }
                perBackend[pid, default: [:]][kind, default: 0] += 1
                if countsIdle || row[3] == "true" || !row[1].hasPrefix("idle") { used.insert(pid) }
            }
        } while stop.wait(timeout: .now() + Self.interval) == .timedOut
        var samples: [WaitClass: Int] = [:]
        for (pid, tally) in perBackend where used.contains(pid) {
            for (kind, count) in tally { samples[kind, default: 0] += count }
        }
        var cpuSeconds: Double? = nil
        if readsBackendCPU {
            let pids: [Int32]
            if case .connections(let connections) = backends {
                pids = connections.connections.map(\.backendPID)
            } else {
                pids = lastSeen
            }
            let cpuAtEnd = Self.cpuNanoseconds(pids)
            // A backend that started in the window counts from 0: its start is the sweep's work too.
            let used = cpuAtEnd.reduce(UInt64(0)) { sum, entry in
                let before = cpuAtStart?[entry.key] ?? 0
                return sum + (entry.value > before ? entry.value - before : 0)
            }
            cpuSeconds = Double(used) / 1e9
        }
        return Seen(
            samples: samples, snapshots: snapshots, backendCPUSeconds: cpuSeconds,
            peakConnections: countsIdle ? peak : nil)
    }

    /// One snapshot's query: each watched backend's PID, state, wait event type and whether its
    /// last command started in the window; nil when there is no backend to watch yet.
    private func query(opened: String) -> String? {
        // The function under the pg_stat_activity view: the view's joins (database and role
        // names) made each snapshot take the server about four times as long to plan and run.
        let select = """
            SELECT pid, coalesce(state, ''), coalesce(wait_event_type, ''), \
            (coalesce(query_start, '-infinity') >= '\(opened)'::timestamptz)::text \
            FROM pg_stat_get_activity(NULL) WHERE
            """
        switch backends {
        case .connections(let connections):
            let pids = connections.connections.map(\.backendPID)
            guard !pids.isEmpty else { return nil }
            return "\(select) pid IN (\(pids.map(String.init).joined(separator: ",")))"
        case .database:
            return """
                \(select) backend_type = 'client backend' AND pid <> pg_backend_pid() \
                AND datid = (SELECT oid FROM pg_database WHERE datname = current_database())
                """
        }
    }

    /// Each backend's CPU so far, ns (`ProcReader.processCPUNanoseconds`); a backend that has
    /// gone is left out.
    static func cpuNanoseconds(_ pids: [Int32]) -> [Int32: UInt64] {
        var cpu: [Int32: UInt64] = [:]
        for pid in pids { cpu[pid] = ProcReader.processCPUNanoseconds(pid) }
        return cpu
    }
}
