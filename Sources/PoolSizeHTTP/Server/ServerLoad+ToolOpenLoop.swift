import PoolSizeKit
import PoolSizeModel

extension ServerLoad {
    /// The open loop's figures of a trial whose tool was given the rate (`{rate}`), from what it
    /// printed, and why the trial is not the server's when the tool, not the server, held
    /// arrivals back or fell short.
    ///
    /// - Offered: the tool's throughput × (requests + dropped) / requests, so that both are over
    ///   the tool's own window (which holds the tail in which its last answers came); with no
    ///   request answered, the dropped ones over the window.
    /// - Carried: the tool's throughput. Latency: its percentiles, from when it sent each
    ///   request, which is each arrival's intended time while it drops none.
    /// - Stable: it carried `OpenLoopFigures.isStable`'s share of the rate asked. A size that
    ///   falls behind answers its queue in a tail its window holds, and carries less a second
    ///   than was asked, whether or not the tool dropped arrivals; one that answers nothing
    ///   never keeps up.
    /// - Backlog: Little's law, carried × the tool's mean latency (NaN without a mean). What
    ///   only a dispatcher of poolsize's sees (the backlog's maximum and growth, the unfinished
    ///   arrivals, the dispatch lag) is not measured: NaN, and 0 for the counts
    ///   (`OpenLoopFigures.backlogMeasured`).
    static func recordAtRate(
        _ metrics: inout TrialMetrics, figures: LoadToolFigures?, trial: OpenLoopTrial, size: Int, tool: String
    ) {
        let window = max(metrics.figures.wallSeconds, 1e-9)
        let carried = figures?.throughputPerSecond ?? 0
        let sent = figures?.requests ?? carried * window
        let dropped = figures?.dropped ?? 0
        let mean = figures?.meanLatencyMicroseconds
        let backlog = mean.map { carried * $0 / 1e6 } ?? .nan
        let asked = trial.ratePerSecond * window
        let stable =
            figures != nil && carried > 0
            && OpenLoopFigures.isStable(
                offered: trial.ratePerSecond, achieved: carried, growth: 0, poolSize: size,
                arrivalsInWindow: Int(min(asked.rounded(), Double(FiniteNumber.wholeLimit))),
                busyQueues: backlog.isFinite ? backlog : 0)
        metrics.figures.loop = .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: trial.ratePerSecond),
                offeredPerSecond: sent > 0 ? carried * (sent + dropped) / sent : dropped / window,
                achievedPerSecond: carried, backlogMean: backlog, backlogMax: 0, backlogGrowth: .nan, stable: stable,
                unfinished: 0, dispatchLagP99Microseconds: .nan))
        guard metrics.invalidReason == nil, let figures else { return }
        metrics.invalidReason = toolHeldBack(
            figures, windowSeconds: window, stable: stable, trial: trial, size: size, tool: tool)
    }

    /// Why a trial at a rate measured the tool rather than the server, or nil:
    /// - it did not print the percentile the objective names, so no verdict rests on it;
    /// - it dropped more than `ServerTrialValidity.connectionWaitShare` of its arrivals while it
    ///   could hold fewer requests than `ServerTrialValidity.neededConnections` (the rate × twice
    ///   the objective, at least the size), or said not how many it could. With at least that
    ///   many, the arrivals it dropped were ones the server held past the objective, which the
    ///   trial then fails on its own figures (it is not stable).
    /// - it carried less than the rate (not `stable`), dropping none, failing almost none, while
    ///   the server held fewer requests than its size on average (Little's law: carried × mean
    ///   latency, or the median without a mean): the pool had idle threads, so the arrivals did
    ///   not come at the rate. `{rate}` did not reach the tool's rate, or the tool could not
    ///   send that fast. A server that falls behind holds more than its size.
    static func toolHeldBack(
        _ figures: LoadToolFigures, windowSeconds window: Double, stable: Bool, trial: OpenLoopTrial, size: Int,
        tool: String
    ) -> String? {
        if trial.latencySLOMicroseconds != nil,
            !((figures.latency ?? LatencyPercentiles()).value(percentile: trial.sloPercentile) > 0)
        {
            let name = "p" + UnitFormat.number(trial.sloPercentile)
            let asked = "p(\(UnitFormat.number(trial.sloPercentile)))"
            let k6 = tool == "k6" ? " (k6: --summary-trend-stats with \(asked))" : ""  // flag-spelling: not poolsize's
            return
                "\(tool) printed no \(name), the percentile the objective names, so the trial has no verdict; have it print one\(k6) and read it with a (?<\(name.replacingOccurrences(of: ".", with: ""))>…) group, or set \(PoolSizeError.Parameter.sloPercentile.mention) to one it prints"
        }
        let dropped = figures.dropped ?? 0
        let sent = figures.requests ?? figures.throughputPerSecond * window
        if dropped > 0, dropped > ServerTrialValidity.connectionWaitShare * (sent + dropped) {
            let needed = ServerTrialValidity.neededConnections(
                ratePerSecond: trial.ratePerSecond, latencySLOMicroseconds: trial.latencySLOMicroseconds, size: size)
            if let cap = figures.concurrency, cap >= needed { return nil }
            let held =
                figures.concurrency.map { "all \($0) of its senders were busy" }
                ?? "it did not say how many it could send at once"
            let why =
                trial.latencySLOMicroseconds.map { slo in
                    "the rate × twice the objective of \(UnitFormat.duration(microseconds: slo)), and at least the size"
                } ?? "at least the size"
            let example = tool == "k6" ? "; -e VUS=\(needed) with Examples/load/k6-rate.js" : ""
            return
                "\(tool) did not send \(UnitFormat.number(dropped)) of its \(UnitFormat.number(sent + dropped)) arrivals (\(held)), so the tool, not the server, held the queue; let it keep \(needed) or more requests in flight (\(why)\(example))"
        }
        // Failures are judged as failures (TrialValidity), whoever fell short.
        guard !stable, Double(figures.errors) <= 0.01 * max(sent, 1) else { return nil }
        let latency = figures.meanLatencyMicroseconds ?? figures.latency?.p50 ?? 0
        let held = figures.throughputPerSecond * latency / 1e6
        guard latency > 0, held < Double(size) else { return nil }
        return
            "\(tool) carried \(UnitFormat.rate(figures.throughputPerSecond)) of the \(UnitFormat.rate(trial.ratePerSecond)) asked while the server held \(UnitFormat.significant(held)) requests on average (Little's law), fewer than its \(size) threads: the arrivals did not come at the rate; check that {rate} is where the tool takes its request rate and that the tool can send that fast (more senders, cores, or another host)"
    }
}
