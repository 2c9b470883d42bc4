import PoolSizeHTTP
import PoolSizeModel

extension ServerTask {
    /// Enough requests in flight that the server, not the driver, limits the largest size:
    /// twice the largest listed size (and the rules of thumb's), at least 64 (`auto`'s sizes
    /// are not known before the sweep measures W/C); for an open loop at least what its top
    /// rate needs so that an arrival held back in the driver cannot change a verdict (the rate
    /// × twice the objective), at most the driver's limit.
    package static func defaultConnections(_ context: TargetContext) -> Int {
        let rules = RuleSet.threadPool(cores: context.cores).sizes.max() ?? 1
        let closed = max(defaultConnectionsFloor, 2 * max(context.listedSizes.max() ?? 1, rules))
        guard case let .open(arrival) = context.load else { return closed }
        let needed = ServerTrialMeasurer.neededConnections(
            ratePerSecond: arrival.topRate.perSecond, latencySLOMicroseconds: arrival.latencySLOMicroseconds,
            size: 1)
        return min(max(closed, needed), HTTPLoadDriver.connectionLimit)
    }
}
