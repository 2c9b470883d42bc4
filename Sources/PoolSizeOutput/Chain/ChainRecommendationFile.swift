import PoolSizeAnalysis
import PoolSizeModel

/// A chain's recommendation.json: the recommended cell as an object of its knobs
/// (`recommended_sizes`), the best cell, the binding layer, and the cells left out.
package struct ChainRecommendationFile: Codable, Equatable, Sendable {
    package struct Exclusion: Codable, Equatable, Sendable {
        package var sizes: KnobCell
        package var reason: String
    }

    /// What the database's backends did over the recommended cell's trials.
    package struct Database: Codable, Equatable, Sendable {
        package var snapshots: Int
        package var peakConnections: Int?
        package var backendCpuSeconds: Double?
        /// Samples in each wait class (`lock`, `timeout`, `client`…).
        package var waitSamples: [String: Int]
        /// The class the backends at work waited on most, and its share of their samples.
        package var topWait: String?
        package var topWaitShare: Double?

        init(_ figures: DatabaseFigures) {
            snapshots = figures.snapshots
            peakConnections = figures.peakConnections
            backendCpuSeconds = figures.backendCPUSeconds
            waitSamples = Dictionary(uniqueKeysWithValues: figures.waitSamples.map { ($0.key.rawValue, $0.value) })
            topWait = figures.topWorkingWait?.rawValue
            topWaitShare = figures.topWorkingWait.map(figures.workingShare)
        }
    }

    /// A layer's rule of thumb beside the answer: the knob's value it gives, the cell that
    /// measured it, and what that cell served.
    package struct Rule: Codable, Equatable, Sendable {
        package var rule: String
        package var knob: String
        package var value: Int
        package var sizes: KnobCell?
        package var note: String?
        package var throughputPerS: Double?
        package var shareOfBest: Double?
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
    /// What the database's backends did at the recommended cell, when the sweep watched it.
    package var recommendedDatabase: Database?
    /// Each layer's rule of thumb, measured beside the answer.
    package var rules: [Rule]

    package init(
        space: KnobSpace, cells: [ChainCellFigures], answer: ChainAnswer?, tolerance: Double,
        limit: ConnectionLimit?, demand: ConnectionDemand?, rules: [ChainRule] = []
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
        recommendedDatabase = answer?.recommended.database.map(Database.init)
        let best = answer?.best.throughputPerSecond
        self.rules = rules.map { rule in
            let throughput = cells.first { $0.cell == rule.cell && rule.cell != nil }?.throughputPerSecond
            return Rule(
                rule: rule.name, knob: rule.knob, value: rule.value, sizes: rule.cell, note: rule.note,
                throughputPerS: throughput, shareOfBest: throughput.flatMap { t in best.map { $0 > 0 ? t / $0 : 0 } })
        }
    }
}
