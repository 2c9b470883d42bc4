/// What an open-loop trial adds to a closed-loop one: the rate offered and carried, the backlog
/// of tasks that arrived but had not finished, and the verdict on stability. The trial's
/// latency percentiles then count from each task's intended arrival, not from its submission.
public struct OpenLoopFigures: Equatable, Sendable, Codable {
    /// The nominal arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// Arrivals whose intended time fell in the window, per second of window (the draw of the
    /// arrival process, around the nominal rate).
    public var offeredPerSecond: Double
    /// Tasks finished in the window per second of window.
    public var achievedPerSecond: Double
    /// Mean of tasks arrived and not finished (queued or running), seen at each arrival in the
    /// window; arrivals of a Poisson process see the time average.
    public var backlogMean: Double
    /// Most tasks arrived and not finished at any arrival in the window.
    public var backlogMax: Int
    /// Mean backlog over the window's last quarter minus its first quarter: near 0 when the pool
    /// keeps up, growing with the window when it does not.
    public var backlogGrowth: Double
    /// Achieved ≥ 99% of offered (allowing for the tasks in service at the window's edges) and
    /// the backlog did not grow (by more than the pool size or 1% of the window's arrivals).
    public var stable: Bool
    /// Tasks that arrived in the window and had not finished when the trial stopped; their
    /// latency is counted as at least their time so far.
    public var unfinished: Int
    /// 99th percentile of how late the dispatcher handed tasks to the pool, µs: the tool's own
    /// lag, already inside the latencies (which count from the intended time).
    public var dispatchLagP99Microseconds: Double

    /// Whether the trial's backlog was seen arrival by arrival (a dispatcher of poolsize's, in
    /// process or the HTTP driver's). A load tool given the rate (`{rate}`) reports no backlog:
    /// its trial's `backlogMean` is Little's law's (carried × mean latency), its `backlogGrowth`
    /// and `dispatchLagP99Microseconds` are NaN, and `backlogMax` and `unfinished` 0, not
    /// measured.
    public var backlogMeasured: Bool { !backlogGrowth.isNaN }

    /// Figures as measured.
    public init(
        arrivalRate: ArrivalRate, offeredPerSecond: Double, achievedPerSecond: Double, backlogMean: Double,
        backlogMax: Int, backlogGrowth: Double, stable: Bool, unfinished: Int = 0,
        dispatchLagP99Microseconds: Double = 0
    ) {
        self.arrivalRate = arrivalRate
        self.offeredPerSecond = offeredPerSecond
        self.achievedPerSecond = achievedPerSecond
        self.backlogMean = backlogMean
        self.backlogMax = backlogMax
        self.backlogGrowth = backlogGrowth
        self.stable = stable
        self.unfinished = unfinished
        self.dispatchLagP99Microseconds = dispatchLagP99Microseconds
    }

    /// Share of offered arrivals a pool must carry to count as keeping up.
    public static let carriedShare = 0.99

    /// The stability verdict: the pool carried at least 99% of the offered arrivals and its
    /// backlog grew by no more than `max(poolSize, 1% of the window's arrivals)`.
    ///
    /// What was carried falls short of what arrived by the change in tasks held between the
    /// window's edges. A pool that keeps up has about `busyQueues` tasks in service at any
    /// moment (offered rate × service time, Little's law, at most the pool size), a count that
    /// varies like a Poisson one, so the difference between two edges has a standard deviation
    /// of about √(2 × busyQueues). The shortfall allowed is 1% of the window's arrivals plus
    /// that one standard deviation: edge noise alone no longer fails a short window (36 queues at
    /// 500/s of 16 ms tasks in a 1 s window carried 524 of 531 arrivals, 98.7%, with a flat
    /// backlog), while a pool short of capacity still fails, since its shortfall grows with the
    /// window and the allowance is fixed by the rate and the task. Anything not finite fails.
    public static func isStable(
        offered: Double, achieved: Double, growth: Double, poolSize: Int, arrivalsInWindow: Int, busyQueues: Double
    ) -> Bool {
        guard offered.isFinite, achieved.isFinite, growth.isFinite, busyQueues.isFinite else { return false }
        let arrivals = Double(arrivalsInWindow)
        let shortfall = offered > 0 ? arrivals * (1 - achieved / offered) : 0
        let inService = min(max(0, busyQueues), Double(max(poolSize, 1)))
        return shortfall <= (1 - carriedShare) * arrivals + (2 * inService).squareRoot()
            && growth <= max(Double(poolSize), 0.01 * arrivals)
    }

    /// Why the trial's dispatcher did not offer the rate asked, or nil when it did. The
    /// arrivals in the window are a Poisson count (or an exact one): fewer than 90% of those
    /// expected, less three standard deviations, means the dispatcher fell behind its intended
    /// times, and the trial measured a lower rate than it names.
    /// A load tool's trial (`backlogMeasured` false) is judged where its figures are read: its
    /// window holds the tail in which its last requests were answered, not only its arrivals.
    func dispatcherShortfall(windowSeconds: Double) -> String? {
        guard backlogMeasured else { return nil }
        let expected = arrivalRate.arrivals(in: windowSeconds)
        let arrivals = offeredPerSecond * windowSeconds
        guard expected.isFinite, arrivals.isFinite, expected >= 1 else { return nil }
        guard arrivals < 0.9 * expected - 3 * expected.squareRoot() else { return nil }
        return
            "the dispatcher offered \(UnitFormat.rate(offeredPerSecond)) of the \(arrivalRate) asked: this machine cannot hand tasks to a pool that fast, so the trial did not measure that rate (lower the arrival rate)"
    }
}
