/// What a probe saw, kept apart from the probe that saw it so a test can judge a scripted
/// observation: `result` words the verdict.
package protocol ProbeObservation {
    /// The claim's verdict on what was seen, with the figures behind it.
    func result() -> ProbeResult
}
