import Foundation

/// The one number formatter for people: console tables, prose, the report, chart legends.
/// Files hold raw numbers (docs/conventions.md); people read `45.3 ms`. Every figure has three
/// significant digits: `significant` keeps trailing zeros so columns line up (`8.00`),
/// `number` drops them in running text (`8`).
package enum UnitFormat {
    /// `1.50 s`, `45.3 ms`, `500 µs`, `12.0 ns`.
    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "∞" }
        let magnitude = abs(seconds)
        if magnitude >= 1 || magnitude == 0 { return magnitude == 0 ? "0 ms" : "\(number(seconds)) s" }
        if magnitude >= 1e-3 { return "\(number(seconds * 1e3)) ms" }
        if magnitude >= 1e-6 { return "\(number(seconds * 1e6)) µs" }
        return "\(number(seconds * 1e9)) ns"
    }

    /// `1000/s`, `12.5/s`.
    package static func rate(_ perSecond: Double) -> String { "\(number(perSecond))/s" }

    /// A rate to the thousandth per second trials.csv records, trailing zeros dropped:
    /// `50.04/s`, `1250/s`. For comparing rates, where three significant digits could make
    /// 50.04/s read as the 50/s it is above.
    package static func rateToThousandth(_ perSecond: Double) -> String {
        guard abs(perSecond) < exponentFrom else { return number(perSecond) + "/s" }
        var text = String(format: "%.3f", perSecond)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "/s"
    }

    /// A fraction as a percentage: 0.625 → `62.5%`.
    package static func percent(_ fraction: Double) -> String { "\(number(fraction * 100))%" }

    /// Three significant digits (`significant`), no exponent, no trailing zeros:
    /// 1.5, 45.3, 0.167, 72 — and 72 also for 72.00000000000001; 1e+300 past `exponentFrom`.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "∞" : "-∞") }
        if abs(value) >= exponentFrom { return exponent(value) }
        let nearest = value.rounded()
        if abs(value - nearest) <= 1e-9 * max(1, abs(value)), abs(nearest) < 1e15 { return String(Int(nearest)) }
        var text = significant(value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// Three significant digits, no exponent, trailing zeros kept: `8.00`, `45.3`, `1990`;
    /// 1e+300 past `exponentFrom`.
    package static func significant(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let magnitude = abs(value)
        if magnitude >= exponentFrom { return exponent(value) }
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(decimals)f", value)
    }

    /// From here on a figure is written with an exponent: a value read from a damaged file
    /// (1e300 µs) would otherwise print as a 300-digit number.
    static let exponentFrom = 1e15

    /// `1e+300`, `1.5e+20`: three significant digits and an exponent.
    static func exponent(_ value: Double) -> String { String(format: "%.3g", value) }

    /// `significant`, or `–` for a figure that was not recorded.
    package static func significant(_ value: Double?) -> String { value.map(significant) ?? "–" }

    /// Small model coefficients (κ is often 1e-4): three significant digits, exponent when needed.
    package static func coefficient(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        if value == 0 { return "0" }
        return String(format: "%.3g", value)
    }

    /// `97%` from 0.97: whole percents for table cells.
    package static func wholePercent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "–" }
        guard abs(fraction * 100) < exponentFrom else { return percent(fraction) }
        return String(format: "%.0f%%", fraction * 100)
    }

    /// `12.5%` from 0.125: for coefficients of variation, where one decimal matters.
    package static func percentOneDecimal(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "–" }
        guard abs(fraction * 100) < exponentFrom else { return percent(fraction) }
        return String(format: "%.1f%%", fraction * 100)
    }

    /// Latency in the unit that keeps it readable, three significant digits: `850 µs`,
    /// `16.2 ms`, `1.20 s`; `–` when not recorded.
    package static func duration(microseconds: Double) -> String {
        guard microseconds.isFinite else { return "–" }
        if microseconds >= 1_000_000 { return significant(microseconds / 1_000_000) + " s" }
        if microseconds >= 1_000 { return significant(microseconds / 1_000) + " ms" }
        return significant(microseconds) + " µs"
    }

    /// An estimate of time, rounded up to a unit a plan is read in: `45 s`, `12 min`, `3.5 h`,
    /// `2.5 days`.
    package static func estimate(_ seconds: Double) -> String {
        if seconds < 120 { return "\(Int(saturating: seconds.rounded(.up))) s" }
        if seconds < 7200 { return "\(Int(saturating: (seconds / 60).rounded(.up))) min" }
        let hours = seconds / 3600
        return hours < 48 ? "\(number(hours)) h" : "\(number(hours / 24)) days"
    }

    /// `512 MiB`, `1.2 GiB`: memory, rounded up below a GiB.
    package static func memory(_ bytes: Double) -> String {
        if bytes < 1024 * 1024 * 1024 { return "\(Int(saturating: (bytes / 1024 / 1024).rounded(.up))) MiB" }
        return "\(number(bytes / 1024 / 1024 / 1024)) GiB"
    }

    /// A fixed number of decimals, for figures compared in one line (`20.0% lower peak`, R²
    /// `0.987`).
    package static func fixed(_ value: Double, decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

    /// Three significant digits with an exponent, for coefficients near zero (κ `1.23e-04`).
    package static func scientific(_ value: Double) -> String { String(format: "%.2e", value) }

    /// Sizes as a compact list: `8, 16, 24`.
    package static func sizes(_ sizes: [Int]) -> String {
        sizes.map(String.init).joined(separator: ", ")
    }
}
