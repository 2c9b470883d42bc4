/// What a sampler run produced.
package struct SamplerOutcome: Sendable {
    /// The parsed observation, for the estimator.
    package var record: ObservationRecord
    /// The raw texts, when the plan asked to keep them.
    package var recording: ProcRecording?
    /// Whether a `StopSignal` ended the run early (Ctrl-C).
    package var interrupted: Bool

    /// An outcome.
    package init(record: ObservationRecord, recording: ProcRecording?, interrupted: Bool) {
        self.record = record
        self.recording = recording
        self.interrupted = interrupted
    }
}
