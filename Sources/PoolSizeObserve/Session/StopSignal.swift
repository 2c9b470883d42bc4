import Foundation
import Synchronization

/// Tells a running sampler to stop (Ctrl-C, the target's end) and wakes it from its sleep.
package final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    /// What cuts short the work in progress when the signal is raised (a counter's read).
    private let cancel = Mutex<(@Sendable () -> Void)?>(nil)

    /// A signal not yet raised.
    package init() {}

    /// Raises the signal; the sampler finishes its current sweep and returns, and work run
    /// through `cancelling` is cut short.
    package func stop() {
        if !stopped.exchange(true, ordering: .acquiringAndReleasing) {
            wake.signal()
            cancel.withLock { $0 }?()
        }
    }

    /// Runs `body`, calling `cancellation` should the signal be raised meanwhile.
    func cancelling<T>(by cancellation: @escaping @Sendable () -> Void, _ body: () -> T) -> T {
        cancel.withLock { $0 = cancellation }
        defer { cancel.withLock { $0 = nil } }
        return body()
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
