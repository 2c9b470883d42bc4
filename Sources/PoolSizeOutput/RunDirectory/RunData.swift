import PoolSizeModel

/// A run directory's contents as `RunDirectory.load()` reads them. Only the trials are
/// required; every other part is optional so that runs that stopped part-way still get a
/// report.
package struct RunData: Equatable, Sendable {
    /// The run's id.
    package var runID: String
    /// Every trial of trials.csv, in file order.
    package var records: [TrialRecord]
    /// `machine.json`: the machine and the sweep's plan.
    package var info: RunInfo?
    /// `lowload.json`: W, C and W/C with one worker.
    package var lowLoad: LowLoadEstimate?
    /// `recommendation.json`.
    package var recommendation: RecommendationSet?
    /// `contention.csv`, written by `--contend` runs.
    package var contention: [TierShare]
    /// What reading the files had to work around (a torn last line of trials.csv), one line each.
    package var warnings: [String] = []

    /// Run data from its parts.
    package init(
        runID: String, records: [TrialRecord], info: RunInfo? = nil, lowLoad: LowLoadEstimate? = nil,
        recommendation: RecommendationSet? = nil, contention: [TierShare] = []
    ) {
        self.runID = runID
        self.records = records
        self.info = info
        self.lowLoad = lowLoad
        self.recommendation = recommendation
        self.contention = contention
    }

    /// The plan machine.json records; nil without machine.json.
    package var plan: SweepPlan? { info?.plan }

    /// The workload's name from machine.json's plan, the recommendation or the trials.
    package var workload: String {
        plan?.spec.name ?? recommendation?.best.workload ?? records.first?.workload ?? "unknown"
    }

    /// Cores the run sized for: the recommendation's, else machine.json's effective count.
    package var cores: Int? { recommendation?.best.cores ?? info?.machine?.cores.effective }

    /// `2026-11-22` from a run id `20261122-051503-io`; nil for ids of another shape.
    package var date: String? {
        let digits = runID.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isNumber) else { return nil }
        let d = Array(digits)
        return "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8]))"
    }

    /// `io workload, 2 cores, 2026-11-22`: the line every chart title and the report carry.
    package var headline: String {
        var parts = ["\(workload) workload"]
        if let cores { parts.append("\(cores) \(cores == 1 ? "core" : "cores")") }
        if let date { parts.append(date) }
        return parts.joined(separator: ", ")
    }
}
