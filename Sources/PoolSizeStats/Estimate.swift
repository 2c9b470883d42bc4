/// A derived quantity with its uncertainty: the point value, its standard error and, when the
/// input sample allowed one, a two-sided 95 % interval.
public struct Estimate: Equatable, Sendable, Codable {
    /// The estimate.
    public let value: Double
    /// Its standard error.
    public let standardError: Double
    /// nil when the underlying sample had fewer than two values.
    public let interval95: ConfidenceInterval?

    /// An estimate with its error and interval.
    public init(value: Double, standardError: Double, interval95: ConfidenceInterval?) {
        self.value = value
        self.standardError = standardError
        self.interval95 = interval95
    }
}
