import Synchronization

/// Which threads ran a probe's tasks, and how many ran at once. Tasks call `enter` when they
/// start blocking and `leave` when they stop.
final class ThreadTally: Sendable {
    private struct State {
        var threads: Set<Int32> = []
        var inside = 0
        var peak = 0
        var entries = 0
    }

    private let state = Mutex(State())

    func enter() {
        let tid = WorkerThread.id()
        state.withLock { s in
            s.threads.insert(tid)
            s.inside += 1
            s.entries += 1
            s.peak = max(s.peak, s.inside)
        }
    }

    func leave() { state.withLock { $0.inside -= 1 } }

    /// Distinct threads that have entered so far.
    var distinctThreads: Int { state.withLock { $0.threads.count } }
    /// Tasks inside right now.
    var inside: Int { state.withLock { $0.inside } }
    /// Most tasks inside at once so far.
    var peak: Int { state.withLock { $0.peak } }
    /// Entries so far.
    var entries: Int { state.withLock { $0.entries } }
}
