/// A derived quantity with its uncertainty: the point value, its standard error and, when the
/// input sample allowed one, a two-sided 95 % interval.
package struct Estimate: Equatable, Sendable, Codable {
    /// The estimate.
    package let value: Double
    /// Its standard error.
    package let standardError: Double
    /// nil when the underlying sample had fewer than two values.
    package let interval95: ConfidenceInterval?
}
