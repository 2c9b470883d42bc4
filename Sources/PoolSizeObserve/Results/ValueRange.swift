/// A quantity known only within bounds: the low end counts known IO alone, the high end adds
/// the ambiguous waits (futex, sleeps) that could be part of a task or could be idleness.
package struct ValueRange: Equatable, Sendable, Codable {
    /// The lower bound.
    package var low: Double
    /// The upper bound.
    package var high: Double

    /// A range; the bounds are put in order.
    package init(low: Double, high: Double) {
        self.low = min(low, high)
        self.high = max(low, high)
    }

    /// Whether `value` lies within the closed range.
    package func contains(_ value: Double) -> Bool { low <= value && value <= high }

    /// Both bounds mapped through `transform` (monotone), kept in order.
    package func map(_ transform: (Double) -> Double) -> ValueRange {
        ValueRange(low: transform(low), high: transform(high))
    }
}
