/// What the controller decided at the end of a window: the size for the next window, why, and
/// how long that window lasts.
package struct AdaptiveDecision: Sendable, Equatable {
    /// Why the size is what it is.
    package enum Reason: String, Sendable, Equatable, CaseIterable {
        /// Nothing to change.
        case hold
        /// Every queue was blocked with work waiting: queues added at once, without a throughput signal.
        case starvation
        /// Grown to cores × (1 + W/C), measured online.
        case formula
        /// A growth did not buy what it should have: back to the size it came from, to measure
        /// it again before believing that (the workload may have changed under the growth).
        case recheck
        /// A growth did not buy what it should have: cut back to where the growth stopped paying.
        case trimmed
        /// The CPUs are saturated and the formula asks for fewer queues: shrunk by a step.
        case shrink
        /// Trying `probeStep` more queues.
        case probeUp
        /// Trying `probeStep` fewer queues.
        case probeDown
        /// The probe's size is kept: more queues paid, or fewer cost nothing.
        case probeKept
        /// The probe's size is given up: back to the size before it.
        case probeReverted
    }

    /// Queues for the next window.
    package var size: Int
    /// Why.
    package var reason: Reason
    /// Length of the next window.
    package var nextIntervalSeconds: Double

    /// A decision.
    package init(size: Int, reason: Reason, nextIntervalSeconds: Double) {
        self.size = size
        self.reason = reason
        self.nextIntervalSeconds = nextIntervalSeconds
    }
}
