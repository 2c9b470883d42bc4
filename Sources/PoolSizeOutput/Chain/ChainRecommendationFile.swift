import PoolSizeAnalysis
import PoolSizeModel

/// A chain's recommendation.json: the recommended cell as an object of its knobs
/// (`recommended_sizes`), the best cell, the binding layer, and the cells left out.
package struct ChainRecommendationFile: Codable, Equatable, Sendable {
    package struct Exclusion: Codable, Equatable, Sendable {
        package var sizes: KnobCell
        package var reason: String
    }

    /// Always "chain": tells this file from a one-pool run's.
    package var kind = "chain"
    package var knobs: [Knob]
    package var recommendedSizes: KnobCell?
    package var recommendedThroughputPerS: Double?
    package var recommendedConnections: Int?
    package var bestSizes: KnobCell?
    package var bestThroughputPerS: Double?
    package var shareOfBest: Double?
    package var tolerance: Double
    package var binding: String
    package var bindingKnob: String?
    package var steps: [ChainAnswer.Step]
    package var beyond: [ChainAnswer.Step]
    package var cells: Int
    package var measured: Int
    package var excluded: [Exclusion]
    package var connectionLimit: ConnectionLimit?
    package var connectionsPerCell: String?

    package init(
        space: KnobSpace, cells: [ChainCellFigures], answer: ChainAnswer?, tolerance: Double,
        limit: ConnectionLimit?, demand: ConnectionDemand?
    ) {
        knobs = space.knobs
        recommendedSizes = answer?.recommended.cell
        recommendedThroughputPerS = answer?.recommended.throughputPerSecond
        recommendedConnections = answer?.recommended.connections
        bestSizes = answer?.best.cell
        bestThroughputPerS = answer?.best.throughputPerSecond
        shareOfBest = answer?.shareOfBest
        self.tolerance = tolerance
        binding = answer?.bindingSentence ?? "no cell was measured"
        bindingKnob = answer?.bindingKnob
        steps = answer?.steps ?? []
        beyond = answer?.beyond ?? []
        self.cells = cells.count
        measured = cells.filter { $0.status == .measured }.count
        excluded = cells.compactMap { figures in
            guard case .excluded(let reason) = figures.status else { return nil }
            return Exclusion(sizes: figures.cell, reason: reason)
        }
        connectionLimit = limit
        connectionsPerCell = demand?.written
    }
}
