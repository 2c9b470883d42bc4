import PoolSizeAnalysis
import PoolSizeModel

extension GitHubBenchmarkExport {
    /// An open loop's entries, named with the rate (`io queue-pool/default/none 1000/s N=20 p99
    /// latency`) so a range's rates never share a name. Bigger is better: the rate each size
    /// carried. Smaller is better: the recommended queue count (per rate in a range), the
    /// objective's percentile at the recommended size, and that percentile per rate and size.
    static func openLoopEntries(
        _ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop, workload: String, direction: Direction
    ) -> [Entry] {
        var entries: [Entry] = []
        let name = open.percentileName
        for curve in analysis.curves {
            let prefix = "\(workload) \(curve.combination)"
            let tables = open.tables(curve.combination)
            switch direction {
            case .bigger:
                for t in tables {
                    for v in t.verdicts where v.achievedPerSecond.isFinite {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) N=\(v.poolSize) carried", unit: "tasks/s",
                                value: v.achievedPerSecond, range: nil,
                                extra:
                                    "offered \(UnitFormat.significant(v.offeredPerSecond))/s; \(v.stable ? "kept up" : "fell behind"); \(v.trials) repetition(s)"
                            ))
                    }
                }
            case .smaller:
                if let r = curve.recommendation {
                    let goal =
                        r.latency?.latencySLOMicroseconds.map { "\(name) ≤ \(UnitFormat.duration(microseconds: $0))" }
                        ?? "keeping up"
                    entries.append(
                        Entry(
                            name: "\(prefix) recommended queues", unit: "queues",
                            value: Double(r.recommendedQueueCount), range: nil,
                            extra:
                                "basis \(r.basis.rawValue); \(goal) at \(UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)) \(r.latency?.met == true ? "met" : "not met by any size (largest measured)"); queueing model \(r.latency?.queueingModelQueueCount.map(String.init) ?? "none")"
                        ))
                    if r.latency?.met == true, let measured = r.latency?.measuredMicroseconds {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(name) latency at the recommended size", unit: "us", value: measured,
                                range: nil,
                                extra:
                                    "N = \(r.recommendedQueueCount) at \(UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)); worst repetition, from intended arrival"
                                    + (r.latency?.latencySLOMicroseconds.map {
                                        "; objective \(UnitFormat.number($0)) us"
                                    } ?? "")))
                    }
                }
                if open.isRange {
                    for t in tables {
                        guard let pick = t.recommendedQueueCount else { continue }
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) recommended queues", unit: "queues",
                                value: Double(pick), range: nil,
                                extra: "queueing model \(t.queueingModelQueueCount.map(String.init) ?? "none")"))
                    }
                }
                for t in tables {
                    for v in t.verdicts where v.percentileMicroseconds.isFinite && v.percentileMicroseconds > 0 {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) N=\(v.poolSize) \(name) latency", unit: "us",
                                value: v.percentileMicroseconds, range: nil,
                                extra:
                                    "worst of \(v.trials) repetition(s), from intended arrival; p50 \(UnitFormat.significant(v.p50Microseconds)) us; \(v.stable ? "kept up" : "fell behind (a lower bound)")"
                                    + (v.meetsSLO.map { $0 ? "; met the objective" : "; missed the objective" } ?? "")))
                    }
                }
            }
        }
        return entries
    }
}
