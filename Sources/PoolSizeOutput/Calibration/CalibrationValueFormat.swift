import Foundation
import PoolSizeModel

/// Console text for calibration values: `25.3 ns`, `46.2 µs`, `8.00 MiB`, ratios `0.28×`.
/// Three significant digits; files keep the raw numbers (docs/conventions.md).
package enum CalibrationValueFormat {
    package static func value(_ value: Double, _ unit: CostUnit) -> String {
        let (scale, suffix) = self.scale(for: value, unit)
        return "\(digits(value / scale)) \(suffix)"
    }

    /// `20.1–23.0 µs`, both ends in the unit that suits the larger.
    package static func range(_ low: Double, _ high: Double, _ unit: CostUnit) -> String {
        let (scale, suffix) = self.scale(for: Swift.max(abs(low), abs(high)), unit)
        return "\(digits(low / scale))–\(digits(high / scale)) \(suffix)"
    }

    /// `0.283×`, `1.50×`, `16.0×`, `128×`.
    package static func ratio(_ value: Double) -> String { "\(digits(value))×" }

    static func scale(for value: Double, _ unit: CostUnit) -> (Double, String) {
        let magnitude = abs(value)
        switch unit {
        case .nanoseconds:
            if magnitude >= 1e9 { return (1e9, "s") }
            if magnitude >= 1e6 { return (1e6, "ms") }
            if magnitude >= 1e3 { return (1e3, "µs") }
            return (1, "ns")
        case .bytes:
            if magnitude >= 1_048_576 { return (1_048_576, "MiB") }
            if magnitude >= 1_024 { return (1_024, "KiB") }
            return (1, "B")
        }
    }

    /// Three significant digits, whole numbers of 100 and more without decimals.
    package static func digits(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "∞" : "-∞") }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(decimals)f", value)
    }
}
