/// What a probe concluded about one platform claim.
package enum Verdict: String, CaseIterable, Codable, Sendable {
    /// The observation matches the claim.
    case holds
    /// The observation contradicts the claim.
    case differs
    /// The observation cannot settle the claim: the probe could not run to the end, or the
    /// machine never produced the situation the claim is about.
    case cannotTell = "cannot tell"
}
