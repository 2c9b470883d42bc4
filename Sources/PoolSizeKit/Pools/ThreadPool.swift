import Foundation
import PoolSizeModel

/// N plain threads taking work from one shared FIFO guarded by a condition variable: the
/// classic fixed-size pool (Java's `newFixedThreadPool`). Threads set the nice value
/// libdispatch would give the tier, so tiers compare across pool kinds; whether the kernel
/// accepted it shows in the recorded `effective_nice`.
public final class ThreadPool: Executor, @unchecked Sendable {
    // @unchecked: `pending` and `stopping` are only touched with `condition` held.
    public let kind = PoolKind.threadPool
    public let size: Int
    public let qos: QoSTier
    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false
    private let finished = DispatchGroup()

    public init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "a thread pool needs at least one thread")
        self.size = size
        self.qos = qos
        for index in 0..<size {
            finished.enter()
            let thread = Thread { [self] in worker() }
            thread.name = "poolsize.thread-pool.\(index)"
            thread.start()
        }
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        pending.append(work)
        condition.signal()
        condition.unlock()
    }

    /// Lets the workers finish everything queued, then ends them.
    public func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func worker() {
        WorkerThread.setNice(qos.requestedNice)
        while let work = take() { work() }
        finished.leave()
    }

    private func take() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == pending.count && !stopping { condition.wait() }
        guard head < pending.count else { return nil }
        let work = pending[head]
        head += 1
        if head > 1024 && head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        return work
    }
}
