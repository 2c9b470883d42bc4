import Dispatch
import PoolSizeModel
import Synchronization

/// Reads the nice value a block runs at on a serial queue of each QoS tier and on each tier's
/// global queue. Read from inside an `async` block: a `sync` block may run on the caller.
package struct NiceProbe: ObservingProbe {
    package let name = ProbeName.nice
    /// How long to wait for one block to run.
    package var timeoutSeconds: Double

    package init(timeoutSeconds: Double = 2) {
        self.timeoutSeconds = timeoutSeconds
    }

    package func observe() -> NiceObservation {
        var samples: [NiceObservation.Sample] = []
        for tier in QoSTier.allCases {
            let serial = DispatchQueue(label: "poolsize.probe.nice.\(tier.rawValue)", qos: tier.dispatchQoS)
            samples.append(.init(tier: tier, queue: .serial, nice: niceOfBlock(on: serial)))
            samples.append(
                .init(tier: tier, queue: .global, nice: niceOfBlock(on: .global(qos: tier.dispatchQoS.qosClass))))
        }
        return NiceObservation(samples: samples, canLowerNice: canLowerNice(), baseNice: Int(WorkerThread.nice()))
    }

    private final class Reading: Sendable {
        let value = Atomic<Int>(Int.min)
    }

    /// The nice of the thread that runs a block on `queue`; nil if no block ran in time.
    func niceOfBlock(on queue: DispatchQueue) -> Int? {
        let reading = Reading()
        let done = DispatchSemaphore(value: 0)
        queue.async {
            reading.value.store(Int(WorkerThread.nice()), ordering: .relaxed)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeoutSeconds) == .success else { return nil }
        return reading.value.load(ordering: .relaxed)
    }

    /// Whether a thread of this process may lower its nice below 0: tried on a throwaway thread,
    /// since nice is per thread on Linux and the probing thread must keep its own.
    func canLowerNice() -> Bool {
        let allowed = Flag()
        let finished = DispatchSemaphore(value: 0)
        guard
            let thread = PosixThread.spawn({
                allowed.value.store(WorkerThread.setNice(-1), ordering: .relaxed)
                finished.signal()
            })
        else { return false }
        guard PosixThread.join([thread], finished: finished, timeout: timeoutSeconds) else { return false }
        return allowed.value.load(ordering: .relaxed)
    }

    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }
}
