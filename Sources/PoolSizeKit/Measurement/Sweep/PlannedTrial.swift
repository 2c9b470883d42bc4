import PoolSizeModel

/// One trial of a sweep's order: a combination at a pool size, one repetition of it, and in the
/// open loop the rate it is offered. Also the key a finished trial is found by on `--resume`: a
/// rate read back from trials.csv equals its planned rate (`ArrivalRate`).
public struct PlannedTrial: Hashable, Sendable, CustomStringConvertible {
    /// The pool kind, QoS tier and primitive.
    public var combination: Combination
    /// Queues (threads) in the pool.
    public var size: Int
    /// Which repetition of (combination, rate, size), from 1.
    public var repetition: Int
    /// The offered arrival rate; nil in the closed loop.
    public var rate: ArrivalRate?

    /// A trial of the plan.
    public init(combination: Combination, size: Int, repetition: Int, rate: ArrivalRate? = nil) {
        self.combination = combination
        self.size = size
        self.repetition = repetition
        self.rate = rate
    }

    /// The place of a finished trial.
    public init(_ record: TrialRecord) {
        self.init(
            combination: record.combination, size: record.poolSize, repetition: record.repetition,
            rate: record.arrivalRate)
    }

    /// `queue-pool/default/none 800/s size 4 rep 2`, as progress lines name a trial.
    public var description: String {
        "\(combination)\(rate.map { " \($0)" } ?? "") size \(size) rep \(repetition)"
    }

    /// Every (combination, rate, size, repetition), in that nesting: the order a sweep shuffles.
    static func all(_ combinations: [Combination], rates: [ArrivalRate?], sizes: [Int], repetitions: Int)
        -> [PlannedTrial]
    {
        combinations.flatMap { combination in
            rates.flatMap { rate in
                sizes.flatMap { size in
                    (1...max(1, repetitions)).map {
                        PlannedTrial(combination: combination, size: size, repetition: $0, rate: rate)
                    }
                }
            }
        }
    }
}
