/// What the round-robin probe saw: how many of M tasks, submitted through a queue pool's
/// round-robin from several threads at once, each of its N queues ran.
///
/// The counter hands out consecutive tickets atomically, so the counts can differ by at most
/// one (⌈M/N⌉ − ⌊M/N⌋), however the submitting threads interleave.
package struct RoundRobinObservation: Equatable, Sendable, Codable, ProbeObservation {
    package var submitters: Int
    package var submitted: Int
    /// Tasks each queue ran, by queue index.
    package var countsPerQueue: [Int]

    package init(submitters: Int, submitted: Int, countsPerQueue: [Int]) {
        self.submitters = submitters
        self.submitted = submitted
        self.countsPerQueue = countsPerQueue
    }

    package var completed: Int { countsPerQueue.reduce(0, +) }

    /// The largest difference between two queues' counts that round-robin allows.
    package var allowedSpread: Int {
        guard !countsPerQueue.isEmpty else { return 0 }
        return submitted % countsPerQueue.count == 0 ? 0 : 1
    }

    package func result() -> ProbeResult {
        let n = countsPerQueue.count
        let low = countsPerQueue.min() ?? 0, high = countsPerQueue.max() ?? 0
        let share = n > 0 ? submitted / n : 0
        let expected =
            n > 0
            ? (allowedSpread == 0
                ? "\(share) tasks on each of \(n) queues" : "\(share)–\(share + 1) tasks on each of \(n) queues")
            : "tasks on every queue"
        let spread = low == high ? "\(low) tasks on every queue" : "\(low)–\(high) tasks per queue"
        let observed = "\(spread), \(completed)/\(submitted) ran (\(submitters) submitting threads)"
        let measurements = countsPerQueue.enumerated().map { index, count in
            ProbeMeasurement(
                "queue \(index)", expected: allowedSpread == 0 ? String(share) : "\(share)–\(share + 1)",
                observed: String(count))
        }
        let verdict: Verdict
        let explanation: String
        if n == 0 || completed < submitted {
            verdict = .cannotTell
            explanation = "only \(completed) of \(submitted) tasks ran before the timeout"
        } else if high - low <= allowedSpread {
            verdict = .holds
            explanation =
                "the atomic counter gave every queue its share although \(submitters) threads submitted at once; the spread is by count: round-robin does not look at how busy a queue is, so uneven task times still pile up on some queues"
        } else {
            verdict = .differs
            explanation =
                "queue counts differ by \(high - low), more than the \(allowedSpread) round-robin allows: tickets were lost or duplicated"
        }
        return ProbeResult(
            name: .roundRobin, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
    }
}
