import PoolSizeKit
import PoolSizeModel

extension ServerLoad {
    /// The open loop's figures of a trial whose tool was given the rate (`{rate}`), from what it
    /// printed, and why the trial is not the server's when the tool, not the server, held
    /// arrivals back.
    ///
    /// - Offered: the tool's throughput × (requests + dropped) / requests, so both are over the
    ///   tool's own window; the requests it sent when it printed no count of dropped ones.
    /// - Carried: the tool's throughput. Latency: its percentiles, from when it sent each
    ///   request, which is each arrival's intended time while it drops none.
    /// - Backlog: Little's law, carried × the tool's mean latency (NaN without a mean). What
    ///   only a dispatcher of poolsize's sees (the backlog's maximum and growth, the unfinished
    ///   arrivals, the dispatch lag) is not measured: NaN, and 0 for the counts
    ///   (`OpenLoopFigures.backlogMeasured`).
    /// - Stable: the carried share of `OpenLoopFigures.isStable`, with no growth.
    static func recordAtRate(
        _ metrics: inout TrialMetrics, figures: LoadToolFigures?, trial: OpenLoopTrial, size: Int, tool: String
    ) {
        let window = max(metrics.figures.wallSeconds, 1e-9)
        let carried = figures?.throughputPerSecond ?? 0
        let sent = figures?.requests ?? carried * window
        let dropped = figures?.dropped ?? 0
        let offered = sent > 0 ? carried * (sent + dropped) / sent : carried
        let mean = figures?.meanLatencyMicroseconds
        let backlog = mean.map { carried * $0 / 1e6 } ?? .nan
        let arrivals = Int(min((offered * window).rounded(), Double(FiniteNumber.wholeLimit)))
        metrics.figures.loop = .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: trial.ratePerSecond), offeredPerSecond: offered,
                achievedPerSecond: carried, backlogMean: backlog, backlogMax: 0, backlogGrowth: .nan,
                stable: figures != nil
                    && OpenLoopFigures.isStable(
                        offered: offered, achieved: carried, growth: 0, poolSize: size, arrivalsInWindow: arrivals,
                        busyQueues: backlog.isFinite ? backlog : 0),
                unfinished: 0, dispatchLagP99Microseconds: .nan))
        guard metrics.invalidReason == nil, let figures, let open = metrics.figures.openLoop else { return }
        metrics.invalidReason = toolHeldBack(
            figures, offeredPerSecond: offered, windowSeconds: window, stable: open.stable, trial: trial, size: size,
            tool: tool)
    }

    /// Why a trial at a rate measured the tool rather than the server, or nil:
    /// - it dropped more than `ServerTrialValidity.connectionWaitShare` of its arrivals while it
    ///   could hold fewer requests than `ServerTrialValidity.neededConnections` (the rate × twice
    ///   the objective, at least the size), or said not how many it could. With at least that
    ///   many, the arrivals it dropped were ones the server held past the objective, which the
    ///   trial then fails on its own figures (it is not stable).
    /// - a `stable` trial offered fewer than 90% of the arrivals the rate asks over its window,
    ///   less three standard deviations of a Poisson count (the dispatcher's rule): `{rate}`
    ///   did not reach the tool's rate, or the tool could not send that fast. Only a trial that
    ///   kept up is judged so: its window ends a service time after its last arrival, while one
    ///   that fell behind spends a tail answering what it queued, which its window holds.
    static func toolHeldBack(
        _ figures: LoadToolFigures, offeredPerSecond offered: Double, windowSeconds window: Double, stable: Bool,
        trial: OpenLoopTrial, size: Int, tool: String
    ) -> String? {
        let dropped = figures.dropped ?? 0
        let sent = figures.requests ?? figures.throughputPerSecond * window
        guard dropped > 0, dropped > ServerTrialValidity.connectionWaitShare * (sent + dropped) else {
            let expected = trial.ratePerSecond * window
            guard stable, expected >= 1, offered * window < 0.9 * expected - 3 * expected.squareRoot() else {
                return nil
            }
            return
                "\(tool) offered \(UnitFormat.rate(offered)) of the \(UnitFormat.rate(trial.ratePerSecond)) asked, so the trial did not measure that rate; check that {rate} is where the tool takes its request rate and that the tool can send that fast (more senders, cores, or another host)"
        }
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
}
