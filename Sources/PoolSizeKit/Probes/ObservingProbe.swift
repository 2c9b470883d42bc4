import PoolSizeModel

/// A probe that observes first and has its observation judge itself (every probe does): its
/// `run` is the one written here.
package protocol ObservingProbe: Probe {
    associatedtype Observation: ProbeObservation
    /// Reproduces the claim and records what happened.
    func observe() -> Observation
}

extension ObservingProbe {
    package func run() -> ProbeResult { observe().result() }
}
