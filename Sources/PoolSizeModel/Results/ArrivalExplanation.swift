/// What an open loop's sizing found beyond its figures (`LatencySizing`), for Output to put into
/// words (`SizingProse`).
package struct ArrivalExplanation: Equatable, Sendable {
    /// The arrivals and the objective.
    package var arrival: ArrivalPlan
    /// C + W of a task at low load, seconds.
    package var serviceSeconds: Double
    /// The size chosen; nil when none passed.
    package var chosen: SLOVerdict?
    /// Up to three sizes below the chosen one (or all, largest first) that did not pass.
    package var failing: [SLOVerdict]
    /// A size larger than the chosen one did not pass.
    package var largerFailed: Bool
    /// A task's own latency at the objective's percentile, µs, when it alone exceeds the objective.
    package var ownPercentileMicroseconds: Double?
    /// The largest size measured.
    package var largest: Int
    /// The rate the largest size would carry within the objective by the queueing model; nil
    /// when the measurements contradict the model (the largest fell behind, or a smaller size did
    /// better).
    package var sustainableRate: Double?
    /// When no size passed and a smaller size than the largest came nearest (it kept up with
    /// a lower percentile, while the largest fell behind or took over half as long again): that
    /// size. Larger sizes did worse there, so measuring larger ones will not help.
    package var nearest: SLOVerdict?

    package init(
        arrival: ArrivalPlan, serviceSeconds: Double, chosen: SLOVerdict?, failing: [SLOVerdict], largerFailed: Bool,
        ownPercentileMicroseconds: Double?, largest: Int, sustainableRate: Double?, nearest: SLOVerdict? = nil
    ) {
        self.arrival = arrival
        self.serviceSeconds = serviceSeconds
        self.chosen = chosen
        self.failing = failing
        self.largerFailed = largerFailed
        self.ownPercentileMicroseconds = ownPercentileMicroseconds
        self.largest = largest
        self.sustainableRate = sustainableRate
        self.nearest = nearest
    }
}
