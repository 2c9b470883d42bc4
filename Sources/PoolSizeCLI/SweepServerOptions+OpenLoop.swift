import PoolSizeHTTP
import PoolSizeModel

extension SweepServerOptions {
    /// The driver's connections when `--connections` is not given: the closed loop's default
    /// (twice the largest size, at least 64), and for an open loop at least what its top rate
    /// needs so that an arrival held back in the driver cannot change a verdict (the rate ×
    /// twice the objective: `ServerTrialMeasurer.neededConnections`), at most the driver's limit.
    static func defaultConnections(sizes: String?, cores: Int, load: Load) throws(PoolSizeError) -> Int {
        let closed = try defaultConnections(sizes: sizes, cores: cores)
        guard case let .open(arrival) = load else { return closed }
        let needed = ServerTrialMeasurer.neededConnections(
            ratePerSecond: arrival.topRate.perSecond, latencySLOMicroseconds: arrival.latencySLOMicroseconds,
            size: 1)
        return min(max(closed, needed), HTTPLoadDriver.connectionLimit)
    }
}
