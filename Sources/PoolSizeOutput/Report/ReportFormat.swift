import Foundation
import PoolSizeModel

/// Numbers as people read them in the report and in chart legends. CSV and data files keep raw
/// numbers (STYLE.md §7); this is only for prose and tables.
public enum ReportFormat {
    /// Three significant digits, no exponent (`Recommender.format`).
    public static func number(_ value: Double) -> String { Recommender.format(value) }

    public static func number(_ value: Double?) -> String { value.map(number) ?? "–" }

    /// Small model coefficients (κ is often 1e-4): three significant digits, exponent when needed.
    public static func coefficient(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == 0 { return "0" }
        return String(format: "%.3g", value)
    }

    /// `97%` from 0.97.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "–" }
        return String(format: "%.0f%%", fraction * 100)
    }

    /// `12.5%` from 0.125: for coefficients of variation, where one decimal matters.
    public static func percentOneDecimal(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "–" }
        return String(format: "%.1f%%", fraction * 100)
    }

    /// Latency in the unit that keeps it readable: `850 µs`, `16.2 ms`, `1.20 s`.
    public static func duration(microseconds: Double) -> String {
        guard microseconds.isFinite else { return "–" }
        if microseconds >= 1_000_000 { return number(microseconds / 1_000_000) + " s" }
        if microseconds >= 1_000 { return number(microseconds / 1_000) + " ms" }
        return number(microseconds) + " µs"
    }

    /// Sizes as a compact list: `8, 16, 24`.
    public static func sizes(_ sizes: [Int]) -> String {
        sizes.map(String.init).joined(separator: ", ")
    }
}
