/// What the deadlock probe saw: a child process that called `sync` on the serial queue
/// already running it, watched by a timeout.
///
/// A serial queue runs one block at a time, so a block that `sync`s onto its own queue waits
/// for itself. libdispatch may notice (it traps with "dispatch_sync called on queue already
/// owned by current thread": SIGILL on x86) or simply wait forever. Either way the claim holds;
/// the probe runs it in a child so that neither outcome can take the tool down or hang it.
package struct DeadlockObservation: Equatable, Sendable, Codable, ProbeObservation {
    /// How the child ended.
    package var outcome: ChildOutcome
    /// Whether the child said it was about to call `sync` (so an early failure is not mistaken
    /// for the deadlock).
    package var reachedSync: Bool
    /// Whether the child said `sync` returned.
    package var syncReturned: Bool
    /// The watchdog's timeout.
    package var watchdogSeconds: Double
    /// The most telling line of the child's stderr, if any: a crash message, or where it crashed.
    package var errorSummary: String?

    package init(
        outcome: ChildOutcome, reachedSync: Bool, syncReturned: Bool = false, watchdogSeconds: Double,
        errorSummary: String? = nil
    ) {
        self.outcome = outcome
        self.reachedSync = reachedSync
        self.syncReturned = syncReturned
        self.watchdogSeconds = watchdogSeconds
        self.errorSummary = errorSummary
    }

    /// The two ways the claim can show itself, and the ways it can fail to.
    package enum Classification: String, Equatable, Sendable, Codable {
        /// The child blocked until the watchdog killed it.
        case hang = "deadlock (hang)"
        /// The child died of a signal while in `sync`.
        case trap
        /// `sync` returned: no deadlock.
        case completed
        /// The child never got to `sync`, or ended in a way that says nothing about it.
        case inconclusive
    }

    package var classification: Classification {
        guard reachedSync else { return .inconclusive }
        switch outcome {
        case .timedOut: return syncReturned ? .inconclusive : .hang
        case .signaled: return syncReturned ? .inconclusive : .trap
        case .exited: return syncReturned ? .completed : .inconclusive
        case .failedToStart: return .inconclusive
        }
    }

    package func result() -> ProbeResult {
        let expected = "deadlock (hang) or trap; the tool itself carries on"
        var observed: String
        switch classification {
        case .hang: observed = "deadlock (hang): \(outcome.summary)"
        case .trap: observed = "trap: \(outcome.summary)"
        case .completed, .inconclusive: observed = outcome.summary
        }
        if let line = errorSummary, !line.isEmpty { observed += " — \"\(line)\"" }
        let measurements = [
            ProbeMeasurement("child", observed: outcome.summary),
            ProbeMeasurement("reached sync", observed: reachedSync ? "yes" : "no"),
            ProbeMeasurement("watchdog", observed: String(format: "%.1f s", watchdogSeconds)),
        ]
        let verdict: Verdict
        let explanation: String
        switch classification {
        case .hang:
            verdict = .holds
            explanation =
                "the block waited for itself until the \(String(format: "%.1f", watchdogSeconds)) s watchdog killed the child: a serial queue cannot run a sync block while it runs the caller"
        case .trap:
            verdict = .holds
            explanation = "libdispatch detected the self-deadlock and trapped; in an app this is a crash, not a hang"
        case .completed:
            verdict = .differs
            explanation = "sync onto the queue running the caller returned: this libdispatch runs such a block inline"
        case .inconclusive:
            verdict = .cannotTell
            if case .failedToStart = outcome {
                explanation = "the child process could not be started, so nothing was observed"
            } else if !reachedSync {
                explanation = "the child ended before reaching the sync call, so its end says nothing about the claim"
            } else {
                explanation = "the child reported sync returning yet did not exit cleanly"
            }
        }
        return ProbeResult(
            name: .deadlock, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
    }
}
