import PoolSizeAnalysis
import PoolSizeModel

extension RunAnalysis {
    /// The database a `--postgres` sweep's connections went to, as its plan recorded it; nil
    /// for any other sweep.
    package var database: DatabaseSetup? {
        guard case let .database(setup)? = run.info?.plan?.target else { return nil }
        return setup
    }

    /// The server's connection limit when it bounded the answer: the recommended size is at
    /// or past it, or the largest size measured is the limit and the curve has no knee below
    /// it. Nil when the limit was not reached or the sweep has none.
    package var boundingConnectionLimit: Int? {
        guard let limit = database?.connectionLimit, let primary, let recommendation = primary.recommendation else {
            return nil
        }
        let largest = primary.points.map(\.poolSize).max() ?? 0
        if recommendation.recommendedQueueCount >= limit { return limit }
        if largest >= limit, recommendation.kneeQueueCount == nil { return limit }
        return nil
    }
}
