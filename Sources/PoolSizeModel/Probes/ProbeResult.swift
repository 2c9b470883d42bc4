/// One probe's report: what the claim predicts, what the machine did, the verdict and why.
package struct ProbeResult: Equatable, Sendable, Codable {
    package var name: ProbeName
    package var claim: String
    package var expected: String
    package var observed: String
    package var verdict: Verdict
    /// One line saying why the verdict is what it is.
    package var explanation: String
    /// The individual readings behind `observed` (per tier, per checkpoint, …), in order.
    package var measurements: [ProbeMeasurement]
    /// Wall time the probe took; nil until the runner has timed it.
    package var elapsedSeconds: Double?

    package init(
        name: ProbeName, expected: String, observed: String, verdict: Verdict, explanation: String,
        measurements: [ProbeMeasurement] = [], elapsedSeconds: Double? = nil
    ) {
        self.name = name
        self.claim = name.claim
        self.expected = expected
        self.observed = observed
        self.verdict = verdict
        self.explanation = explanation
        self.measurements = measurements
        self.elapsedSeconds = elapsedSeconds
    }
}

/// One reading of a probe: what it is, what the claim predicts for it (if anything), what was seen.
package struct ProbeMeasurement: Equatable, Sendable, Codable {
    package var label: String
    package var expected: String?
    package var observed: String

    package init(_ label: String, expected: String? = nil, observed: String) {
        self.label = label
        self.expected = expected
        self.observed = observed
    }
}

/// Everything `poolsize probe` reports, in the order the probes ran.
package struct ProbeReport: Equatable, Sendable, Codable {
    package var results: [ProbeResult]
    package var machine: MachineFacts?

    package init(results: [ProbeResult], machine: MachineFacts? = nil) {
        self.results = results
        self.machine = machine
    }

    /// How many probes reached each verdict, every verdict listed (zero included).
    package var tally: [(verdict: Verdict, count: Int)] {
        Verdict.allCases.map { verdict in (verdict, results.filter { $0.verdict == verdict }.count) }
    }
}
