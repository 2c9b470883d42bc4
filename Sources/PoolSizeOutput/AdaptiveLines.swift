import PoolSizeAnalysis
import PoolSizeModel

/// What each adaptive pool of a run did, in one sentence per maximum, for the console and the
/// report: the size it settled on, its throughput, and how that compares with the knee of the
/// fixed pool measured beside it. Pure.
package enum AdaptiveLines {
    /// `adaptive, at most 64 queues (3 trials): settled at 32 queues, 1960 tasks/s, 0.98× the
    /// knee of queue-pool/default/none (32 queues, 2000 tasks/s); 1 turn in 5.0 s`.
    package static func sentence(_ s: AdaptiveSummary) -> String {
        var text =
            "adaptive, at most \(s.maximum) queue\(s.maximum == 1 ? "" : "s") (\(s.trials) \(s.trials == 1 ? "trial" : "trials")): "
        let queues = s.settledSize == 1 ? "queue" : "queues"
        text += "settled at \(s.settledSize) \(queues), \(UnitFormat.significant(s.throughput.mean)) tasks/s"
        if let reference = s.reference, let ratio = s.ratioToKnee {
            text += ", \(UnitFormat.significant(ratio))× the knee of \(reference.combination) "
            text +=
                "(\(reference.kneeSize) queues, \(UnitFormat.significant(reference.kneeThroughputPerSecond)) tasks/s)"
        }
        if s.seconds > 0 {
            let turns = s.directionChanges == 1 ? "turn" : "turns"
            text += "; \(s.directionChanges) \(turns) in \(UnitFormat.duration(s.seconds))"
        }
        return text
    }

    /// The report's table: one row per adaptive pool and maximum.
    package static func rows(_ summaries: [AdaptiveSummary]) -> [[String]] {
        summaries.map { s in
            [
                s.combination.description, String(s.maximum), String(s.trials), "**\(s.settledSize)**",
                UnitFormat.significant(s.throughput.mean),
                s.reference.map { "\($0.kneeSize) (\($0.combination.pool.rawValue))" } ?? "–",
                s.ratioToKnee.map { UnitFormat.significant($0) + "×" } ?? "–",
                String(s.directionChanges), s.seconds > 0 ? UnitFormat.duration(s.seconds) : "–",
            ]
        }
    }

    /// The header of `rows`.
    package static let header = [
        "pool", "maximum", "trials", "settled at", "tasks/s", "fixed knee", "vs knee", "turns", "trial",
    ]
}
