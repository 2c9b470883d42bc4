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

    /// Three significant digits, no exponent; whole numbers without decimals.
    public static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return Recommender.format(value)
    }
}
