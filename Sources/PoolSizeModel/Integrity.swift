/// What the mutual-exclusion check found for a trial, or for all trials of a combination.
package enum Integrity: String, CaseIterable, Codable, Sendable {
    /// The primitive kept every critical section to one task at a time.
    case ok
    /// Two tasks were inside the critical section at once, or an update was lost.
    case violated
    /// The trial had no critical section to check.
    case notApplicable = "n/a"

    /// Over several trials: `violated` if any was, `n/a` if none had a critical section, else `ok`.
    package static func combined(_ verdicts: some Sequence<Integrity>) -> Integrity {
        var sawOK = false
        for verdict in verdicts {
            if verdict == .violated { return .violated }
            if verdict == .ok { sawOK = true }
        }
        return sawOK ? .ok : .notApplicable
    }
}
