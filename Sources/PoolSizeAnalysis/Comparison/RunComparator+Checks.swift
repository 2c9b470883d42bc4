import Foundation
import PoolSizeModel

/// Whether two runs can be compared at all, and the comparison in words.
extension RunComparator {
    /// Refuses runs whose numbers mean different things: another workload (by name, by its
    /// spec's times or by its database transaction), another core count, or no configuration
    /// in common. A partial overlap is
    /// compared and reported in the notes.
    static func checkComparable(base: RunSamples, current: RunSamples) throws(PoolSizeError) {
        for (role, run) in [("base", base), ("current", current)] where run.samples.isEmpty {
            throw .incomparable(details: "the \(role) run \(run.runID) has no finished trials")
        }
        let (baseNames, currentNames) = (base.workloadNames, current.workloadNames)
        if baseNames.isDisjoint(with: currentNames) {
            throw .incomparable(
                details:
                    "different workloads: base \(base.runID) measured \(list(baseNames)), current \(current.runID) measured \(list(currentNames)); compare two runs of the same workload"
            )
        }
        if let a = base.workload, let b = current.workload, let difference = specDifference(a, b) {
            throw .incomparable(
                details:
                    "workload '\(a.name)' is not the same in both runs (\(difference)); compare runs of the same spec")
        }
        // Two scripts run against one database share the workload's name and spec.
        if let a = base.scriptSHA256, let b = current.scriptSHA256, a != b {
            throw .incomparable(
                details:
                    "different transactions: base \(base.runID) ran the script of SHA-256 \(a.prefix(12))…, current \(current.runID) that of \(b.prefix(12))…; compare two runs of the same script (\(PoolSizeError.Parameter.sql.mention) or \(PoolSizeError.Parameter.sqlFile.mention); sha256sum FILE prints a file's)"
            )
        }
        if let baseCores = base.cores, let currentCores = current.cores, baseCores != currentCores {
            throw .incomparable(
                details:
                    "different cores: base \(base.runID) ran on \(baseCores) effective cores, current \(current.runID) on \(currentCores); compare runs on the same machine shape, or rerun with \(PoolSizeError.Parameter.cores.mention) \(baseCores)"
            )
        }
        try checkOpenLoop(base: base, current: current)
        if Set(base.samples.keys).isDisjoint(with: current.samples.keys) {
            throw .incomparable(
                details:
                    "no configuration is in both runs: base measured \(describe(base.samples.keys)), current measured \(describe(current.samples.keys))"
            )
        }
    }

    /// `cpu 1000 µs vs 2000 µs` for the first spec field both runs recorded differently.
    static func specDifference(_ a: WorkloadSpec, _ b: WorkloadSpec) -> String? {
        let numbers: [(String, Double, Double)] = [
            ("cpu", a.cpuMicroseconds, b.cpuMicroseconds), ("wait", a.waitMicroseconds, b.waitMicroseconds),
            ("critical section", a.criticalMicroseconds, b.criticalMicroseconds),
        ]
        for (name, x, y) in numbers where x != y {
            return "\(name) \(UnitFormat.number(x)) µs vs \(UnitFormat.number(y)) µs"
        }
        if a.jitter != b.jitter { return "jitter \(a.jitter.rawValue) vs \(b.jitter.rawValue)" }
        return nil
    }

    /// `queue-pool/default/none at sizes 1, 2, 4` per combination, at most three.
    static func describe(_ keys: Dictionary<RunConfiguration, RunSamples.Samples>.Keys) -> String {
        let groups = Dictionary(grouping: keys) { $0.combination.description }
        let parts = groups.keys.sorted().prefix(3).map { name in
            "\(name) at sizes \(groups[name]!.map(\.poolSize).sorted().map(String.init).joined(separator: ", "))"
        }
        return parts.joined(separator: "; ") + (groups.count > 3 ? "; and \(groups.count - 3) more" : "")
    }

    static func list(_ names: Set<String>) -> String { names.sorted().joined(separator: ", ") }

    static func summary(_ c: RunComparison) -> String {
        let changed = c.sizing.filter(\.changed)
        let metrics = metricSummary(c)
        guard let first = changed.first else { return metrics }
        let more = changed.count > 1 ? "; and \(changed.count - 1) more" : ""
        return "The recommendation changed: \(first.sentence)\(more). " + metrics
    }

    static func metricSummary(_ c: RunComparison) -> String {
        let total = c.configurations.count
        let findings = c.configurations.filter(\.judged).flatMap { row in
            [("throughput", row.throughput), ("p99 latency", row.latencyP99)].compactMap { name, metric in
                metric?.verdict == .regression
                    ? "\(name) \(signedPercent(metric!.relativeChange)) at \(row.configuration) (\(evidence(metric!)))"
                    : nil
            }
        }
        guard let first = findings.first else {
            let improved = c.configurations.filter { $0.judged && $0.verdict == .improvement }.count
            return
                "No regression in \(total) configuration\(total == 1 ? "" : "s") beyond the \(UnitFormat.percent(c.threshold)) threshold"
                + (improved > 0 ? " (\(improved) improved)." : ".")
        }
        let more = findings.count > 1 ? "; and \(findings.count - 1) more" : ""
        return "\(c.regressions) of \(total) configuration\(total == 1 ? "" : "s") regressed: \(first)\(more)"
    }

    static func notes(_ c: RunComparison) -> [String] {
        var notes: [String] = []
        let shown = { (keys: [RunConfiguration]) in
            keys.prefix(5).map(\.description).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
        }
        if !c.onlyInBase.isEmpty {
            notes.append(
                "\(c.onlyInBase.count) configuration(s) only in the base run, not compared: \(shown(c.onlyInBase)).")
        }
        if !c.onlyInCurrent.isEmpty {
            notes.append(
                "\(c.onlyInCurrent.count) configuration(s) only in the current run, not compared: \(shown(c.onlyInCurrent))."
            )
        }
        let metrics = c.configurations.flatMap { [$0.throughput, $0.latencyP99].compactMap { $0 } }
        let noisy = metrics.filter { $0.verdict == .inconclusive }
        if !noisy.isEmpty {
            // Advise more than the runs had: "5" to runs of 5 repetitions asked for nothing new.
            let had = noisy.map { max($0.baseRepetitions, $0.currentRepetitions) }.max() ?? 1
            let more = max(5, 2 * had)
            notes.append(
                "\(noisy.count) change(s) beyond the threshold are within the noise of the repetitions (\(had) at most); more repetitions (\(PoolSizeError.Parameter.repetitions.mention) \(more)) would settle them."
            )
        }
        let untested = metrics.filter { $0.verdict == .untested }.count
        if untested > 0 {
            notes.append(
                "\(untested) change(s) beyond the threshold could not be tested because a run measured that size once; rerun with \(PoolSizeError.Parameter.repetitions.mention) 3 or more, and where an adaptive search chose the sizes (it repeats only those near the knee) sweep the current run at the base run's sizes (\(PoolSizeError.Parameter.sizesFrom.mention) with the base run's directory), so that both runs have every size with every repetition."
            )
        }
        let unjudged = c.configurations.filter { !$0.judged }
        if !unjudged.isEmpty {
            let moved = unjudged.filter { $0.verdict == .regression }.count
            notes.append(
                "\(unjudged.count) size(s) past the knee are shown but not judged (\(moved) moved beyond the threshold there): no sizing decision rests on the plateau."
            )
        }
        if c.configurations.allSatisfy({ $0.latencyP99 == nil }) {
            notes.append("No p99 latency in one of the runs: throughput alone was compared.")
        }
        return notes
    }

    /// `Mann–Whitney p 0.029` or `95% intervals apart`.
    package static func evidence(_ m: MetricComparison) -> String {
        switch m.test {
        case .mannWhitney: return "Mann–Whitney p \(String(format: "%.3f", m.pValue ?? 1))"
        case .confidenceIntervals: return m.significant ? "95% intervals apart" : "95% intervals overlap"
        case .none: return "1 repetition, untested"
        case .collapsed: return "no positive throughput in the current run"
        }
    }

    /// `-20.0%`, `+3.1%`.
    package static func signedPercent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction > 0 ? "+∞%" : "n/a" }
        return String(format: "%+.1f%%", fraction * 100)
    }
}
