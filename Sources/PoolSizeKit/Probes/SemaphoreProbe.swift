import Dispatch
import PoolSizeModel
import Synchronization

/// More threads than the count repeatedly take a `DispatchSemaphore(value: count)`, hold it
/// across a short sleep, and release it; a gauge records the most inside at once.
package struct SemaphoreProbe: ObservingProbe {
    package let name = ProbeName.semaphore
    package var count = 3
    package var threads = 8
    package var sectionsPerThread = 5
    package var holdMilliseconds = 10
    package var timeoutSeconds = 5.0

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
