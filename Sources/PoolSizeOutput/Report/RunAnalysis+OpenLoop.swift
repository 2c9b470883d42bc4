import PoolSizeAnalysis
import PoolSizeModel

extension RunAnalysis {
    /// An open-loop run's figures: its arrival plan, every configuration at every rate, and the
    /// verdict tables per combination and rate.
    package struct OpenLoop: Equatable, Sendable {
        /// The arrivals and objective, its rates those the trials measured.
        package var arrival: ArrivalPlan
        /// Every valid configuration, at every rate (sorted by combination, rate, size).
        package var summaries: [ConfigurationSummary]
        /// Per combination and rate: each size's verdict and the smallest size that passes.
        package var tables: [OpenLoopRateTable]
        /// The rate the recommendation is for: the highest offered.
        package var topRate: ArrivalRate

        package var rates: [ArrivalRate] { arrival.rates }
        package var isRange: Bool { rates.count > 1 }
        /// `p99`.
        package var percentileName: String { SLOSizer.name(percentile: arrival.sloPercentile) }

        /// `combination`'s tables, by rate.
        package func tables(_ combination: Combination) -> [OpenLoopRateTable] {
            tables.filter { $0.combination == combination }
        }
        /// `combination`'s table at `rate`.
        package func table(_ combination: Combination, rate: ArrivalRate) -> OpenLoopRateTable? {
            tables.first { $0.combination == combination && $0.arrivalRate == rate }
        }
        /// The configuration of `combination` at `rate` and `size`.
        package func summary(_ combination: Combination, rate: ArrivalRate, size: Int) -> ConfigurationSummary? {
            summaries.first { $0.combination == combination && $0.poolSize == size && $0.arrivalRate == rate }
        }
    }
}
