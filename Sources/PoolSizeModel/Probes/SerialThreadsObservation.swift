/// What the serial-threads probe saw: N serial queues each got one task that blocks until every
/// task has started (or a deadline passes).
///
/// Serial queues are "overcommit" in libdispatch (docs/platform.md): each gets a thread of its own when
/// its block waits, up to 255 per QoS bucket. If they shared a bounded pool, some tasks would
/// not start until others returned, and fewer distinct threads would show.
package struct SerialThreadsObservation: Equatable, Sendable, Codable, ProbeObservation {
    package var queues: Int
    /// Tasks that had started by the deadline.
    package var started: Int
    /// Distinct kernel thread ids that ran the tasks.
    package var distinctThreads: Int
    /// Most tasks blocked at the same moment.
    package var peakConcurrent: Int
    /// How long the probe waited for every task to start.
    package var waitedSeconds: Double
    /// Whether every task finished after being released (within the drain timeout).
    package var drained: Bool

    package init(
        queues: Int, started: Int, distinctThreads: Int, peakConcurrent: Int, waitedSeconds: Double,
        drained: Bool = true
    ) {
        self.queues = queues
        self.started = started
        self.distinctThreads = distinctThreads
        self.peakConcurrent = peakConcurrent
        self.waitedSeconds = waitedSeconds
        self.drained = drained
    }

    package func result() -> ProbeResult {
        let expected = "\(queues) threads for \(queues) serial queues, all \(queues) tasks blocked at once"
        let observed =
            "\(distinctThreads) threads, \(peakConcurrent) tasks blocked at once (\(started)/\(queues) started in \(UnitFormat.duration(waitedSeconds)))"
        let measurements = [
            ProbeMeasurement("distinct threads", expected: String(queues), observed: String(distinctThreads)),
            ProbeMeasurement("tasks blocked at once", expected: String(queues), observed: String(peakConcurrent)),
        ]
        let verdict: Verdict
        let explanation: String
        if started == 0 {
            verdict = .cannotTell
            explanation = "no task started within \(String(format: "%.1f", waitedSeconds)) s"
        } else if distinctThreads >= queues && peakConcurrent >= queues {
            verdict = .holds
            explanation =
                "every serial queue got its own thread while its task blocked: N queues bound the pool at N threads, and no fewer"
        } else {
            verdict = .differs
            explanation =
                "only \(distinctThreads) threads served \(queues) blocked serial queues, so \(queues - started) tasks waited for a thread; a pool of N queues would run fewer than N tasks at once"
        }
        var result = ProbeResult(
            name: .serialThreads, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
        if !drained { result.explanation += "; some tasks did not finish after release (left running)" }
        return result
    }
}
