import PoolSizeModel

/// Several runs of one workload on different machines, side by side: each machine's throughput
/// curve, cores, low-load W/C and recommendation, and whether the sizing formula
/// cores × U × (1 + W/C) explains how the recommendations differ. Pure: analyses in, values out.
package struct MachineComparison: Equatable, Sendable {
    /// One run directory's figures.
    package struct Machine: Equatable, Sendable {
        /// Unique name in legends and tables: the host name, else the run id.
        package var label: String
        package var runID: String
        package var workload: String
        package var cpuModel: String?
        package var kernel: String?
        package var cores: Int?
        /// Low-load W/C, the formula's input.
        package var waitCPURatio: Double?
        /// cores × U × (1 + W/C), unrounded.
        package var formula: Double?
        package var recommended: Int?
        /// (pool size, mean throughput per second) of the recommended combination, by size.
        package var points: [(size: Int, throughput: Double)]

        package static func == (a: Machine, b: Machine) -> Bool {
            a.label == b.label && a.runID == b.runID && a.workload == b.workload && a.cpuModel == b.cpuModel
                && a.kernel == b.kernel
                && a.cores == b.cores && a.waitCPURatio == b.waitCPURatio && a.formula == b.formula
                && a.recommended == b.recommended
                && a.points.map(\.size) == b.points.map(\.size)
                && a.points.map(\.throughput) == b.points.map(\.throughput)
        }

        /// Mean throughput at the recommended size, when that size was measured.
        package var throughputAtRecommendation: Double? {
            guard let recommended else { return nil }
            return points.first { $0.size == recommended }?.throughput
        }
    }

    /// How one machine's recommendation relates to the reference machine's.
    package enum Verdict: Equatable, Sendable {
        /// The first machine: the others are measured against it.
        case reference
        /// recommendation ratio ÷ formula ratio is within `tolerance` of 1.
        case explained(recommendationRatio: Double, formulaRatio: Double)
        /// It is not: something other than cores and W/C (a lock, the memory system, the
        /// device or server behind the wait) sets this machine's size.
        case unexplained(recommendationRatio: Double, formulaRatio: Double)
        /// A figure is missing (no recommendation, cores or W/C in the run directory).
        case unknown(missing: String)
    }

    /// How far the ratio of recommendations may stray from the ratio of formula values and
    /// still count as explained: 25%, wider than the knee's own step between measured sizes on
    /// the usual doubling grid would suggest is noise (a knee at 8 vs 6 is one grid step).
    package static let tolerance = 0.25

    package var machines: [Machine]

    /// The workloads of the runs, in order of first appearance; more than one means mixed.
    package var workloads: [String] {
        machines.map(\.workload).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    }

    package init(machines: [Machine]) {
        self.machines = machines
    }

    /// The recommended combination of each analysis, labelled by host name (made unique with the
    /// run id, then with the position, so two runs of one host stay apart).
    package init(_ analyses: [RunAnalysis]) {
        var machines: [Machine] = analyses.map { analysis in
            let run = analysis.run
            let curve = analysis.primary
            let recommendation = curve?.recommendation
            let ratio = run.lowLoad?.ratio?.ratio ?? recommendation?.waitCPURatio
            return Machine(
                label: run.info?.machine?.hostname ?? run.runID, runID: run.runID, workload: run.workload,
                cpuModel: run.info?.machine?.cpuModel, kernel: run.info?.machine?.kernel, cores: run.cores,
                waitCPURatio: ratio?.isFinite == true ? ratio : nil,
                formula: recommendation.map(\.formulaQueueCountExact).flatMap { $0.isFinite ? $0 : nil },
                recommended: recommendation?.recommendedQueueCount,
                points: (curve?.points ?? []).map { (size: $0.poolSize, throughput: $0.throughput.mean) })
        }
        // Decided on a snapshot, so renaming the first of two duplicates does not make the
        // second look unique.
        var labels = machines.map(\.label)
        for index in machines.indices where labels.filter({ $0 == labels[index] }).count > 1 {
            machines[index].label += " " + machines[index].runID
        }
        labels = machines.map(\.label)
        for index in machines.indices where labels.filter({ $0 == labels[index] }).count > 1 {
            machines[index].label += " #\(index + 1)"
        }
        self.init(machines: machines)
    }

    /// Each machine against the first: does recommendation_i / recommendation_1 match
    /// formula_i / formula_1 within `tolerance`?
    package var verdicts: [Verdict] {
        guard let reference = machines.first else { return [] }
        return machines.indices.map { index in
            if index == 0 { return .reference }
            let machine = machines[index]
            var missing: [String] = []
            if machine.recommended == nil || reference.recommended == nil { missing.append("recommendation") }
            if machine.formula == nil || reference.formula == nil { missing.append("formula value (cores and W/C)") }
            guard missing.isEmpty, let r = machine.recommended, let r0 = reference.recommended, let f = machine.formula,
                let f0 = reference.formula,
                r0 > 0, f0 > 0, f > 0
            else {
                return .unknown(
                    missing: missing.isEmpty ? "a positive formula value" : missing.joined(separator: " and "))
            }
            let recommendationRatio = Double(r) / Double(r0)
            let formulaRatio = f / f0
            return abs(recommendationRatio / formulaRatio - 1) <= Self.tolerance
                ? .explained(recommendationRatio: recommendationRatio, formulaRatio: formulaRatio)
                : .unexplained(recommendationRatio: recommendationRatio, formulaRatio: formulaRatio)
        }
    }
}
