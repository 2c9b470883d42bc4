/// A derived quantity with its uncertainty: the point value, its standard error and, when the
/// input sample allowed one, a two-sided 95 % interval.
public struct Estimate: Equatable, Sendable, Codable {
    public let value: Double
    public let standardError: Double
    /// nil when the underlying sample had fewer than two values.
    public let interval95: ConfidenceInterval?

    public init(value: Double, standardError: Double, interval95: ConfidenceInterval?) {
        self.value = value
        self.standardError = standardError
        self.interval95 = interval95
    }
}
