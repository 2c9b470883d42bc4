import Foundation
import PoolSizeAnalysis
import PoolSizeModel

extension SweepLoadOptions {
    /// Refuses the open loop's flags in a closed-loop sweep (no `--arrival-rate`): each names
    /// what only arriving tasks have.
    func refuseOpenLoopFlags() throws(PoolSizeError) {
        let openLoopFlags = [
            ("--arrivals", arrivals != nil), ("--latency-slo", latencySLO != nil),
            ("--slo-percentile", sloPercentile != nil),
        ]
        for (flag, given) in openLoopFlags where given {
            throw .invalidOption(
                flag: flag,
                message: "applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop \(flag)")
        }
    }

    /// The open loop's arrival plan: the rates of `--arrival-rate` (`rates`), their spacing and
    /// the latency objective, checked.
    func arrivalPlan(rates: String) throws(PoolSizeError) -> ArrivalPlan {
        var plan = ArrivalPlan(rates: try ArrivalPlan.parseRates(rates), process: arrivals ?? .poisson)
        if let latencySLO {
            let seconds = try QuantityParser.seconds(latencySLO, flag: "--latency-slo")
            guard seconds > 0, seconds <= 3600 else {
                throw .invalidOption(
                    flag: "--latency-slo",
                    message: "must be more than 0 and at most 1h, got \(latencySLO); write it like 40ms")
            }
            plan.latencySLOMicroseconds = seconds * 1e6
        } else if sloPercentile != nil {
            throw .invalidOption(
                flag: "--slo-percentile",
                message: "sets the percentile of --latency-slo; add --latency-slo (e.g. 40ms) or drop --slo-percentile")
        }
        if let sloPercentile {
            let text = sloPercentile.trimmingCharacters(in: .whitespaces)
            let number = Double(text.hasPrefix("p") ? String(text.dropFirst()) : text)
            guard let number, SLOSizer.percentiles.contains(number) else {
                throw .invalidOption(
                    flag: "--slo-percentile",
                    message: "'\(text)' is not a recorded percentile; use one of 50, 90, 99, 99.9")
            }
            plan.sloPercentile = number
        }
        return plan
    }
}
