import ArgumentParser
import Foundation
import PoolSizeAnalysis
import PoolSizeModel

/// How tasks reach the pool: as fast as it takes them (a closed loop), or arriving at a rate
/// whatever it does (an open loop, with an optional latency objective).
struct SweepLoadOptions: ParsableArguments {
    @Option(name: .customLong("arrival-rate"), help: ArgumentHelp(Help.arrivalRate, valueName: "RATE"))
    var arrivalRate: String?

    @Option(
        help: "With --arrival-rate: how arrivals are spaced, poisson (exponential gaps, seeded) or uniform (evenly).")
    var arrivals: ArrivalProcess?

    @Option(name: .customLong("latency-slo"), help: ArgumentHelp(Help.latencySLO, valueName: "DURATION"))
    var latencySLO: String?

    @Option(
        name: .customLong("slo-percentile"),
        help: "With --latency-slo: the percentile the objective applies to, one of 50, 90, 99, 99.9 (default 99).")
    var sloPercentile: String?

    /// The load these flags describe, checked.
    func resolve() throws(PoolSizeError) -> Load {
        guard let arrivalRate else {
            let openLoopFlags = [
                ("--arrivals", arrivals != nil), ("--latency-slo", latencySLO != nil),
                ("--slo-percentile", sloPercentile != nil),
            ]
            for (flag, given) in openLoopFlags where given {
                throw .invalidOption(
                    flag: flag,
                    message:
                        "applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop \(flag)")
            }
            return .closed
        }
        var plan = ArrivalPlan(rates: try ArrivalPlan.parseRates(arrivalRate), process: arrivals ?? .poisson)
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
        return .open(plan)
    }

    private enum Help {
        static let arrivalRate = """
            Open loop: tasks arrive at this rate whatever the pool is doing, as requests reach a service (800/s, \
            48000/min), or at each rate of a range (200/s...2000/s:200). Latency counts from each task's intended \
            arrival; per size the report gives the rate offered and carried, the percentiles, the backlog and \
            whether the size keeps up.
            """
        static let latencySLO = """
            With --arrival-rate: the latency objective (e.g. 40ms); the recommendation is the smallest size that \
            keeps up and meets it at --slo-percentile. Exit 5 when no size does.
            """
    }
}
