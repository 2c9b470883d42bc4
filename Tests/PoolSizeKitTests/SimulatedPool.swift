import Dispatch
import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Synchronization

/// A pool and the clocks of its machine as one discrete-event simulation, so a runner's
/// arithmetic (arrival times, window edges, latencies, backlog) can be checked against answers
/// worked out by hand on any machine, however slow or busy.
///
/// Time is virtual and moves only when the runner sleeps or waits, or when it submits (by
/// `submitNanoseconds`, a dispatcher that cannot hand tasks over faster). Submitted work waits
/// in `size` serial queues dealt round-robin, as `QueuePool` deals it; a queue starts its next
/// task at the later of the task's submission and the end of the one before. A task runs on the
/// calling thread at the virtual time it starts and takes the time its body spends (`spend`,
/// through `SimulatedWork`). Its completion is therefore counted when it starts: the backlog a
/// runner reads excludes the task in service on each queue.
final class SimulatedPool: WorkerPool, MeasurementClocks, @unchecked Sendable {
    /// Virtual CLOCK_MONOTONIC, ns.
    private(set) var now: UInt64
    let size: Int
    var kind: PoolKind { .queuePool }
    /// Virtual time each `submit` takes.
    let submitNanoseconds: UInt64
    private var queues: [[(work: @Sendable () -> Void, submitted: UInt64)]]
    private var freeAt: [UInt64]
    private var nextQueue = 0

    /// Everything happens on the test's thread: the runner's, which also runs the tasks.
    init(size: Int, start: UInt64 = 1_000_000_000, submitNanoseconds: UInt64 = 0) {
        self.size = size
        now = start
        self.submitNanoseconds = submitNanoseconds
        queues = Array(repeating: [], count: size)
        freeAt = Array(repeating: 0, count: size)
    }

    func submit(_ work: @escaping @Sendable () -> Void) {
        now += submitNanoseconds
        queues[nextQueue].append((work, now))
        nextQueue = (nextQueue + 1) % size
    }

    func shutdown() { run(through: .max) }

    /// What a simulated task's body calls: the task takes `nanoseconds` more.
    func spend(_ nanoseconds: UInt64) { now += nanoseconds }

    func wallNanoseconds() -> UInt64 { now }
    /// Simulated tasks wait; none computes.
    func threadCPUNanoseconds() -> UInt64 { 0 }
    func processUsage() -> ProcessUsage {
        ProcessUsage(cpuNanoseconds: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0, maxRSSKilobytes: 0)
    }
    func machineBusyNanoseconds() -> UInt64? { nil }

    /// Runs every task that starts by `deadline` (or by now, when that has passed), then moves
    /// the time there.
    func sleep(until deadline: UInt64) {
        run(through: max(now, deadline))
        now = max(now, deadline)
    }

    /// Runs everything still queued (a runner has stopped its trial first, so queued tasks
    /// return without running), the time moving to the last end.
    func wait(for group: DispatchGroup, timeoutSeconds: Double) -> Bool {
        let resume = now
        run(through: .max)
        now = max(resume, freeAt.max() ?? resume)
        return group.wait(timeout: .now()) == .success
    }

    /// Starts queued tasks in the order of their start times while those are at most
    /// `deadline`; each runs whole at its start, and the time comes back to where it was.
    private func run(through deadline: UInt64) {
        let resume = now
        while true {
            var first: (queue: Int, start: UInt64)?
            for queue in queues.indices {
                guard let head = queues[queue].first else { continue }
                let start = max(head.submitted, freeAt[queue])
                if start <= deadline && start < (first?.start ?? .max) { first = (queue, start) }
            }
            guard let (queue, start) = first else { break }
            let task = queues[queue].removeFirst()
            now = start
            task.work()
            freeAt[queue] = now
        }
        now = resume
    }
}

/// A task of the simulation: task `index` takes `nanoseconds(index)` of virtual time, waiting.
struct SimulatedWork: Workload {
    let pool: SimulatedPool
    let nanoseconds: @Sendable (UInt64) -> UInt64
    func run(task index: UInt64) { pool.spend(nanoseconds(index)) }
}
