import Foundation
import PoolSizeStats

/// An open-loop arrival rate, tasks per second. Two rates are the same rate when they agree to
/// the thousandth per second, the precision trials.csv records: a rate planned as 1000/min
/// (16.666…/s) and the same rate read back from the file (16.667) are one rate, so plans,
/// records, tables and `--resume` match them by value instead of through a key of their own.
/// Written to JSON as the bare number.
public struct ArrivalRate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// The rate as given or measured, tasks/s.
    public let perSecond: Double
    /// The rate in thousandths per second, from the same `%.3f` text trials.csv holds, so a
    /// rate and its value read back round alike even at a half: the rate's identity.
    public let thousandths: Int64

    /// A rate of `perSecond` tasks per second.
    public init(perSecond: Double) {
        self.perSecond = perSecond
        self.thousandths = Self.thousandths(of: perSecond)
    }

    /// `800.5` where a rate is expected: that many tasks per second.
    public init(floatLiteral value: Double) { self.init(perSecond: value) }
    /// `800` where a rate is expected: that many tasks per second.
    public init(integerLiteral value: Int) { self.init(perSecond: Double(value)) }

    /// A rate from the bare number JSON holds.
    public init(from decoder: any Decoder) throws {
        self.init(perSecond: try decoder.singleValueContainer().decode(Double.self))
    }

    /// The bare number, tasks/s.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(perSecond)
    }

    /// The same rate to the thousandth per second.
    public static func == (a: ArrivalRate, b: ArrivalRate) -> Bool { a.thousandths == b.thousandths }
    /// Hashes the thousandths, as `==` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(thousandths) }
    /// Slower, to the thousandth per second.
    public static func < (a: ArrivalRate, b: ArrivalRate) -> Bool { a.thousandths < b.thousandths }

    /// `800/s`, `16.7/s`: three significant digits, for people.
    public var description: String { UnitFormat.rate(perSecond) }

    /// To the thousandth the results record (`50.04/s`), for telling close rates apart.
    public var exactDescription: String { UnitFormat.rateToThousandth(perSecond) }

    /// Tasks arriving in `seconds` at this rate.
    public func arrivals(in seconds: Double) -> Double { perSecond * seconds }

    private static func thousandths(of rate: Double) -> Int64 {
        guard rate.isFinite, abs(rate) < 1e15 else { return rate > 0 ? .max : .min }
        let text = String(format: "%.3f", rate)
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let whole = Int64(parts[0].replacingOccurrences(of: "-", with: "")),
            let fraction = Int64(parts[1])
        else {
            return Int64(Int(saturating: (rate * 1000).rounded()))
        }
        let magnitude = whole * 1000 + fraction
        return text.hasPrefix("-") ? -magnitude : magnitude
    }
}

extension UnitFormat {
    /// `800/s`: an arrival rate for people, as `rate(_:)` writes any rate.
    public static func rate(_ rate: ArrivalRate) -> String { Self.rate(rate.perSecond) }
}
