/// What the semaphore probe saw: more threads than the count, each repeatedly taking a
/// `DispatchSemaphore(value: count)`, holding it across a short sleep and releasing it.
///
/// The cap is the whole point of the global-queue pool kind (at most N tasks in flight); the
/// peak must reach the count, too, or the probe never tested the cap.
package struct SemaphoreObservation: Equatable, Sendable, Codable, ProbeObservation {
    package var count: Int
    package var threads: Int
    /// Most threads inside the semaphore at once.
    package var peakInside: Int
    package var sectionsRun: Int
    package var sectionsPlanned: Int

    package init(count: Int, threads: Int, peakInside: Int, sectionsRun: Int, sectionsPlanned: Int) {
        self.count = count
        self.threads = threads
        self.peakInside = peakInside
        self.sectionsRun = sectionsRun
        self.sectionsPlanned = sectionsPlanned
    }

    package func result() -> ProbeResult {
        let expected = "at most \(count) of \(threads) threads inside at once, and \(count) reached"
        let observed = "peak \(peakInside) inside; \(sectionsRun)/\(sectionsPlanned) sections ran"
        let measurements = [
            ProbeMeasurement("peak inside", expected: String(count), observed: String(peakInside)),
            ProbeMeasurement("sections run", expected: String(sectionsPlanned), observed: String(sectionsRun)),
        ]
        let verdict: Verdict
        let explanation: String
        if peakInside > count {
            verdict = .differs
            explanation = "\(peakInside) threads were inside a semaphore of count \(count) at once"
        } else if sectionsRun < sectionsPlanned {
            verdict = .cannotTell
            explanation = "only \(sectionsRun) of \(sectionsPlanned) sections ran before the timeout"
        } else if peakInside < count {
            verdict = .cannotTell
            explanation =
                "the peak stayed at \(peakInside) below the count \(count), so the cap was never put to the test"
        } else {
            verdict = .holds
            explanation = "\(threads) threads competed and exactly \(count) got in at a time"
        }
        return ProbeResult(
            name: .semaphore, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
    }
}
