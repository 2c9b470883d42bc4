/// One point on the sweep's axes other than size: which pool, at which QoS tier, guarding its
/// critical section with which primitive. A sweep measures the product of its axes.
public struct Combination: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The pool kind.
    public var pool: PoolKind
    /// The QoS tier.
    public var qos: QoSTier
    /// The primitive guarding the critical section.
    public var primitive: PrimitiveKind

    /// A combination of the three axes.
    public init(pool: PoolKind, qos: QoSTier, primitive: PrimitiveKind) {
        self.pool = pool
        self.qos = qos
        self.primitive = primitive
    }

    /// Every combination of the axes, in the order the axes list them.
    public static func product(pools: [PoolKind], tiers: [QoSTier], primitives: [PrimitiveKind]) -> [Combination] {
        pools.flatMap { pool in
            tiers.flatMap { qos in primitives.map { Combination(pool: pool, qos: qos, primitive: $0) } }
        }
    }

    /// `queue-pool/default/mutex`
    public var description: String { "\(pool.rawValue)/\(qos.rawValue)/\(primitive.rawValue)" }

    /// Axis order: pools, then tiers, then primitives, each as its enum lists them.
    public static func < (a: Combination, b: Combination) -> Bool {
        func key(_ c: Combination) -> (Int, Int, Int) {
            (
                PoolKind.allCases.firstIndex(of: c.pool)!, QoSTier.allCases.firstIndex(of: c.qos)!,
                PrimitiveKind.allCases.firstIndex(of: c.primitive)!
            )
        }
        return key(a) < key(b)
    }
}

extension TrialRecord {
    /// The trial's pool, tier and primitive.
    public var combination: Combination { Combination(pool: pool, qos: qos, primitive: primitive) }
}
