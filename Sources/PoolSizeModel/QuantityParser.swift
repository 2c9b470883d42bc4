import Foundation

/// Parses the quantities `plan` and `compare` take on the command line: durations (`40ms`),
/// rates (`1200/s`) and fractions (`30%`, `0.3`). Every error names the flag (the command line's
/// own) or the setting and shows a valid
/// value (docs/conventions.md); range checks (positive, at most 1, …) belong to the caller, which knows
/// what the quantity means.
package enum QuantityParser {
    // Numbers follow `FiniteNumber`'s rule: `Double(_:)` alone reads `0x10s` as 16 s and `infs`.
    /// Duration units: seconds = value × multiplier / divisor (dividing by an exact power of ten
    /// rounds once, so `40ms` is exactly the Double 0.04). A bare `m` is refused: it reads as
    /// milli to some and minutes to others, so minutes are spelled `min`.
    static let durationUnits: [(suffix: String, multiplier: Double, divisor: Double)] = [
        ("ns", 1, 1e9), ("us", 1, 1e6), ("µs", 1, 1e6), ("μs", 1, 1e6), ("ms", 1, 1e3), ("s", 1, 1), ("min", 60, 1),
        ("h", 3600, 1),
    ]

    /// Rate units (after the `/`) and their length in seconds.
    static let rateUnits: [(suffix: String, seconds: Double)] = [
        ("s", 1), ("sec", 1), ("second", 1), ("min", 60), ("minute", 60), ("h", 3600), ("hour", 3600),
    ]

    static let durationUsage = "write it like 40ms, 500us (or 500µs), 1.5s or 2min"
    static let rateUsage = "write it like 1200/s, 72000/min or 1200 (per second)"

    /// Seconds in `text`: a number followed by a unit (ns, us, µs, ms, s, min, h), spaces allowed
    /// between them. A bare number is refused because its unit would be a guess. Negative values
    /// parse (the caller says why they are wrong, with the value the user typed).
    package static func seconds(_ text: String, flag: String) throws(PoolSizeError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if FiniteNumber.parse(trimmed) != nil {
            throw .invalidOption(flag: flag, message: "'\(trimmed)' has no unit; \(durationUsage)")
        }
        // Longest suffix first, so `ms` is not read as `m` + `s` and `min` not as `s`.
        for unit in durationUnits.sorted(by: { $0.suffix.count > $1.suffix.count }) where trimmed.hasSuffix(unit.suffix)
        {
            let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = FiniteNumber.parse(number) else { break }
            return value * unit.multiplier / unit.divisor
        }
        throw .invalidOption(flag: flag, message: "'\(trimmed)' is not a duration; \(durationUsage)")
    }

    /// Events per second in `text`: `1200/s`, `72000/min`, `4.5e6/h`, or a bare number meaning
    /// per second. Zero and negative rates parse; the caller refuses them.
    package static func perSecond(_ text: String, flag: String) throws(PoolSizeError) -> Double {
        try perSecond(text) { .invalidOption(flag: flag, message: $0) }
    }

    /// Events per second in `text`, an error naming `parameter` when it is no rate.
    package static func perSecond(
        _ text: String, parameter: PoolSizeError.Parameter
    ) throws(PoolSizeError) -> Double {
        try perSecond(text) { .invalidParameter(parameter, message: $0) }
    }

    static func perSecond(_ text: String, invalid: (String) -> PoolSizeError) throws(PoolSizeError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (1...2).contains(parts.count), let value = FiniteNumber.parse(parts[0]) else {
            throw invalid("'\(trimmed)' is not a rate; \(rateUsage)")
        }
        guard parts.count == 2 else { return value }
        guard let unit = rateUnits.first(where: { $0.suffix == parts[1].lowercased() }) else {
            throw invalid("unknown time unit '\(parts[1])' in '\(trimmed)'; \(rateUsage)")
        }
        return value / unit.seconds
    }

    /// A fraction from `30%` or `0.3`. A bare number above 1 is refused rather than read as a
    /// percentage (`30` would be 3000%), naming both spellings of what was probably meant.
    package static func fraction(_ text: String, flag: String) throws(PoolSizeError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            let number = trimmed.dropLast().trimmingCharacters(in: .whitespaces)
            guard let percent = FiniteNumber.parse(number) else {
                throw .invalidOption(flag: flag, message: "'\(trimmed)' is not a percentage; write it like 30% or 0.3")
            }
            return percent / 100
        }
        guard let value = FiniteNumber.parse(trimmed) else {
            throw .invalidOption(flag: flag, message: "'\(trimmed)' is not a fraction; write it like 30% or 0.3")
        }
        guard value <= 1 else {
            throw .invalidOption(
                flag: flag,
                message: "'\(trimmed)' is ambiguous; write \(trimmed)% for a percentage or a fraction like 0.3")
        }
        return value
    }
}
