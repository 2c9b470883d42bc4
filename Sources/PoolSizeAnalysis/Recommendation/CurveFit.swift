import PoolSizeStats
import PoolSizeModel

/// A throughput curve modelled two ways: the Universal Scalability Law (Gunther,
/// *Guerrilla Capacity Planning*, 2007, ch. 4) and the knee of the measured points.
package struct CurveFit: Equatable, Sendable, Encodable {
    /// What the points are (a combination, or the file's name for foreign data).
    package var group: String
    package var points: Int
    package var distinctConcurrency: Int
    package var usl: USLFit?
    /// Why the USL fit was refused, when it was; `refusalSummary` is its first clause.
    package var refusal: String?
    package var refusalSummary: String?
    /// The knee, when concurrency values are whole numbers (pool sizes).
    package var knee: Knee?

    enum CodingKeys: String, CodingKey {
        case group, points, distinctConcurrency, sigma, kappa, lambda, sigmaStandardError, kappaStandardError,
            lambdaStandardError, rSquared, peakConcurrency, peakThroughput, refusal, kneeConcurrency, kneeThroughput
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(group, forKey: .group)
        try c.encode(points, forKey: .points)
        try c.encode(distinctConcurrency, forKey: .distinctConcurrency)
        try c.encode(usl?.sigma, forKey: .sigma)
        try c.encode(usl?.kappa, forKey: .kappa)
        try c.encode(usl?.lambda, forKey: .lambda)
        try c.encode(usl?.sigmaStandardError, forKey: .sigmaStandardError)
        try c.encode(usl?.kappaStandardError, forKey: .kappaStandardError)
        try c.encode(usl?.lambdaStandardError, forKey: .lambdaStandardError)
        try c.encode(usl?.rSquared, forKey: .rSquared)
        try c.encode(usl?.peakConcurrency, forKey: .peakConcurrency)
        try c.encode(usl?.peakThroughput, forKey: .peakThroughput)
        try c.encode(refusal, forKey: .refusal)
        try c.encode(knee?.size, forKey: .kneeConcurrency)
        try c.encode(knee?.throughput, forKey: .kneeThroughput)
    }

    /// Fits one group of (concurrency, throughput) points.
    package static func fit(group: String, concurrency x: [Double], throughput y: [Double], tolerance: Double = 0.05)
        -> CurveFit
    {
        var result = CurveFit(group: group, points: x.count, distinctConcurrency: Set(x).count)
        do {
            result.usl = try USLFit.fit(concurrency: x, throughput: y).validated(maxConcurrency: x.max() ?? 0)
        } catch {
            result.refusal = error.description
            result.refusalSummary = error.shortDescription
        }
        // Whole numbers up to a billion, converted to Int without a trap (1e300 is not a size).
        if x.allSatisfy({ $0 == $0.rounded() && $0 >= 1 && $0 <= 1e9 }) {
            let points = Dictionary(grouping: zip(x, y), by: { Int($0.0) }).map {
                CurvePoint(size: $0.key, samples: $0.value.map(\.1))
            }
            result.knee = Knee.find(points, tolerance: tolerance)
        }
        return result
    }

    init(group: String, points: Int, distinctConcurrency: Int) {
        self.group = group
        self.points = points
        self.distinctConcurrency = distinctConcurrency
    }
}
