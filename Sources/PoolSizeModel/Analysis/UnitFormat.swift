/// Pretty units for prose and console tables (STYLE.md §7: files hold raw numbers; people read
/// `45.3 ms`). Numbers use `Recommender.format`'s three significant digits.
public enum UnitFormat {
    /// `1.50 s`, `45.3 ms`, `500 µs`, `12.0 ns`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "∞" }
        let magnitude = abs(seconds)
        if magnitude >= 1 || magnitude == 0 { return magnitude == 0 ? "0 ms" : "\(number(seconds)) s" }
        if magnitude >= 1e-3 { return "\(number(seconds * 1e3)) ms" }
        if magnitude >= 1e-6 { return "\(number(seconds * 1e6)) µs" }
        return "\(number(seconds * 1e9)) ns"
    }

    /// `1000/s`, `12.5/s`.
    public static func rate(_ perSecond: Double) -> String { "\(number(perSecond))/s" }

    /// A fraction as a percentage: 0.625 → `62.5%`.
    public static func percent(_ fraction: Double) -> String { "\(number(fraction * 100))%" }

    /// Three significant digits (`Recommender.format`), no exponent, no trailing zeros:
    /// 1.5, 45.3, 0.167, 72 — and 72 also for 72.00000000000001.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "∞" : "-∞") }
        let nearest = value.rounded()
        if abs(value - nearest) <= 1e-9 * max(1, abs(value)), abs(nearest) < 1e15 { return String(Int(nearest)) }
        var text = Recommender.format(value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
