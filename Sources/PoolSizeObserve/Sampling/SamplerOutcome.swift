/// What a sampler run produced.
package struct SamplerOutcome: Sendable {
    /// The samples, gathered as they were read.
    package var accumulated: ObservationAccumulator
    /// The target, clock, cores, cost and limits.
    package var header: ObservationHeader
    /// The processes watched, as they stand at the end.
    package var processes: [ProcessFacts]
    /// The raw texts, when the plan asked to keep them.
    package var recording: ProcRecording?
    /// Whether a `StopSignal` ended the run early (Ctrl-C).
    package var interrupted: Bool

    /// The estimate of every pool.
    package func observation(settings: EstimatorSettings) -> Observation {
        accumulated.observation(header: header, processes: processes, settings: settings)
    }
}
