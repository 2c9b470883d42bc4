import PoolSizeModel
import PoolSizeObserve

/// The sentence that explains a pool's verdict, from the figures behind it. Pure. It names the
/// observe flags that would narrow an undetermined verdict, as the command's help spells them.
package enum ObservationVerdictText {
    /// `about right`, `CPU-saturated`: the verdict's short name for tables.
    package static func name(_ verdict: PoolVerdict) -> String {
        switch verdict.kind {
        case .oversized: return "oversized"
        case .aboutRight: return "about right"
        case .undersized: return "undersized"
        case .cpuSaturated: return "CPU-saturated"
        case .undetermined: return "undetermined"
        }
    }

    /// One sentence: the verdict, the figures it rests on and what to do.
    package static func sentence(_ pool: PoolEstimate, cores: CoreCount) -> String {
        let threads = "\(pool.threads) thread\(pool.threads == 1 ? "" : "s")"
        let size = pool.size.map(range) ?? "–"
        let busy = percentRange(pool.busy)
        switch pool.verdict.kind {
        case .oversized:
            return
                "oversized: \(threads), more than the \(size) that \(cores.effective) core\(cores.effective == 1 ? "" : "s") × (1 + W/C) can keep busy even at W/C's upper bound; the extra threads can only queue for the CPUs"
        case .aboutRight:
            if let low = pool.size?.low, Double(pool.threads) < low.rounded(.down) {
                return
                    "about right for this load: \(threads), \(busy) busy; cores × (1 + W/C) = \(size) would only pay off if the load grew until every thread is busy"
            }
            return "about right: \(threads), within cores × (1 + W/C) = \(size)"
        case .undersized:
            return
                "undersized: \(threads), \(busy) busy, below cores × (1 + W/C) = \(size); tasks likely queue for a thread: grow toward \(pool.size.map { UnitFormat.number($0.low.rounded(.up)) } ?? "–")"
        case .cpuSaturated:
            return
                "CPU-saturated: the threads wait for a CPU \(UnitFormat.number(pool.queueToCPU ?? 0)) s per second they run (Q/C); do not grow the pool: run-queue time is not wait, and more threads would lengthen the queue"
        case .undetermined:
            switch pool.verdict.reason ?? .noWork {
            case .noWork:
                return "undetermined: the pool used almost no CPU while observed; observe it under load"
            case .tooFewSamples:
                return
                    "undetermined: \(pool.samples) samples are too few; observe longer (--duration) or sample faster (--rate)"
            case .singleThread:
                return
                    "undetermined: one thread, usually a helper (an event loop, a timer, a feeder) whose waits are its own rather than tasks'; its shares and W/C are shown, its size is not judged"
            case .ambiguousWait:
                let ambiguous = UnitFormat.percent(pool.share(.ambiguous)?.fraction ?? 0)
                return
                    "undetermined: \(threads) lie inside cores × (1 + W/C) = \(size), a range that ambiguous waits (futex, sleeps: \(ambiguous) of the time) widen; --throughput R/s with --latency D would resolve them"
            }
        }
    }

    /// `9.7–11.2`, or one figure when both ends agree to three digits.
    package static func range(_ value: ValueRange) -> String {
        let low = UnitFormat.number(value.low), high = UnitFormat.number(value.high)
        return low == high ? low : "\(low)–\(high)"
    }

    /// `25–31%`, or `25%`.
    package static func percentRange(_ value: ValueRange) -> String {
        let low = UnitFormat.number(value.low * 100), high = UnitFormat.number(value.high * 100)
        return low == high ? "\(low)%" : "\(low)–\(high)%"
    }
}
