/// One probe's report: what the claim predicts, what the machine did, the verdict and why.
public struct ProbeResult: Equatable, Sendable, Codable {
    public var name: ProbeName
    public var claim: String
    public var expected: String
    public var observed: String
    public var verdict: Verdict
    /// One line saying why the verdict is what it is.
    public var explanation: String
    /// The individual readings behind `observed` (per tier, per checkpoint, …), in order.
    public var measurements: [ProbeMeasurement]
    /// Wall time the probe took; nil until the runner has timed it.
    public var elapsedSeconds: Double?

    public init(name: ProbeName, expected: String, observed: String, verdict: Verdict, explanation: String, measurements: [ProbeMeasurement] = [], elapsedSeconds: Double? = nil) {
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
public struct ProbeMeasurement: Equatable, Sendable, Codable {
    public var label: String
    public var expected: String?
    public var observed: String

    public init(_ label: String, expected: String? = nil, observed: String) {
        self.label = label
        self.expected = expected
        self.observed = observed
    }
}

/// Everything `poolsize probe` reports, in the order the probes ran.
public struct ProbeReport: Equatable, Sendable, Codable {
    public var results: [ProbeResult]
    public var machine: MachineFacts?

    public init(results: [ProbeResult], machine: MachineFacts? = nil) {
        self.results = results
        self.machine = machine
    }

    /// How many probes reached each verdict, every verdict listed (zero included).
    public var tally: [(verdict: Verdict, count: Int)] {
        Verdict.allCases.map { verdict in (verdict, results.filter { $0.verdict == verdict }.count) }
    }
}
