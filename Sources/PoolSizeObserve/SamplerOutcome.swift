/// What a sampler run produced.
public struct SamplerOutcome: Sendable {
    /// The parsed observation, for the estimator.
    public var record: ObservationRecord
    /// The raw texts, when the plan asked to keep them.
    public var recording: ProcRecording?
    /// Whether a `StopSignal` ended the run early (Ctrl-C).
    public var interrupted: Bool

    /// An outcome.
    public init(record: ObservationRecord, recording: ProcRecording?, interrupted: Bool) {
        self.record = record
        self.recording = recording
        self.interrupted = interrupted
    }
}
