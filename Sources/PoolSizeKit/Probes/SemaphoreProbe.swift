import Dispatch
import PoolSizeModel
import Synchronization

/// More threads than the count repeatedly take a `DispatchSemaphore(value: count)`, hold it
/// across a short sleep, and release it; a gauge records the most inside at once.
package struct SemaphoreProbe: Probe {
    package let name = ProbeName.semaphore
    package var count: Int
    package var threads: Int
    package var sectionsPerThread: Int
    package var holdMilliseconds: Int
    package var timeoutSeconds: Double

    package init(
        count: Int = 3, threads: Int = 8, sectionsPerThread: Int = 5, holdMilliseconds: Int = 10,
        timeoutSeconds: Double = 5
    ) {
        self.count = count
        self.threads = threads
        self.sectionsPerThread = sectionsPerThread
        self.holdMilliseconds = holdMilliseconds
        self.timeoutSeconds = timeoutSeconds
    }

    package func run() -> ProbeResult { observe().result() }

    package func observe() -> SemaphoreObservation {
        let semaphore = DispatchSemaphore(value: count)
        let gauge = Gauge()
        let finished = DispatchSemaphore(value: 0)
        let deadline = DispatchTime.now() + timeoutSeconds
        let spawned = (0..<threads).compactMap { _ in
            PosixThread.spawn { [sectionsPerThread, holdMilliseconds] in
                for _ in 0..<sectionsPerThread {
                    guard semaphore.wait(timeout: deadline) == .success else { break }
                    gauge.enter()
                    SleepWaiter().wait(microseconds: Double(holdMilliseconds) * 1_000)
                    gauge.leave()
                    semaphore.signal()
                }
                finished.signal()
            }
        }
        PosixThread.join(spawned, finished: finished, timeout: timeoutSeconds + 1)
        return SemaphoreObservation(
            count: count, threads: spawned.count, peakInside: gauge.peak.load(ordering: .relaxed),
            sectionsRun: gauge.sections.load(ordering: .relaxed), sectionsPlanned: threads * sectionsPerThread)
    }

    private final class Gauge: Sendable {
        let inside = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        let sections = Atomic<Int>(0)

        func enter() {
            let now = inside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            peak.max(now, ordering: .relaxed)
        }

        func leave() {
            inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            sections.wrappingAdd(1, ordering: .relaxed)
        }
    }
}
