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
        help:
            "With --arrival-rate: how arrivals are spaced, poisson (exponential gaps, seeded) or uniform (evenly); with --load, tool-paced (the tool's own, the default there)."
    )
    var arrivals: ArrivalProcess?

    @Option(name: .customLong("latency-slo"), help: ArgumentHelp(Help.latencySLO, valueName: "DURATION"))
    var latencySLO: String?

    @Option(
        name: .customLong("slo-percentile"),
        help: "With --latency-slo: the percentile the objective applies to, one of 50, 90, 99, 99.9 (default 99).")
    var sloPercentile: String?

    /// The load these flags describe, checked: the closed loop without `--arrival-rate` (and
    /// none of the open loop's flags), else the open loop's arrival plan
    /// (SweepLoadOptions+OpenLoop), tool-paced by default when `toolPaced` (a server's `--load`
    /// tool is given the rate).
    func resolve(toolPaced: Bool = false) throws(PoolSizeError) -> Load {
        guard let arrivalRate else {
            try refuseOpenLoopFlags()
            return .closed
        }
        var plan = try arrivalPlan(rates: arrivalRate)
        if toolPaced && arrivals == nil { plan.process = .tool }
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
