import Foundation
import Synchronization

/// Tells a running sampler to stop (Ctrl-C, the target's end) and wakes it from its sleep.
package final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    /// A signal not yet raised.
    package init() {}

    /// Raises the signal; the sampler finishes its current sweep and returns.
    package func stop() {
        if !stopped.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Whether the signal was raised.
    package var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Sleeps `seconds` or until the signal is raised; true when raised.
    func sleep(seconds: Double) -> Bool {
        if isStopped { return true }
        if seconds > 0, wake.wait(timeout: .now() + seconds) == .success {
            wake.signal()
            return true
        }
        return isStopped
    }
}
