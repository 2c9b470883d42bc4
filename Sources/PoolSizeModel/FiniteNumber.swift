/// The one rule by which every reader takes a number from a file (trials.csv, summary.csv, a
/// trace, any CSV `fit` reads) or checks one decoded from JSON: decimal notation (`12`, `-0.5`,
/// `1.5e3`) and finite. Swift's `Double(_:)` alone also reads `nan`, `inf`, `infinity` and
/// hexadecimal (`0x1p4`), and turns `1e400` into infinity: none of them is a measurement, and a
/// reader that took them would pass them to arithmetic that another reader refuses.
package enum FiniteNumber {
    /// `text` as a finite decimal number; nil for anything else.
    package static func parse(_ text: some StringProtocol) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy(isDecimalCharacter), let value = Double(String(text)), value.isFinite
        else { return nil }
        return value
    }

    /// `text` as a measured amount (a time, a rate, a count): finite and not negative; `-0`
    /// reads as 0.
    package static func quantity(_ text: some StringProtocol) -> Double? {
        parse(text).flatMap { isQuantity($0) ? $0 + 0 : nil }
    }

    /// Whether a value decoded from a file is a measured amount: finite and not negative.
    package static func isQuantity(_ value: Double) -> Bool { value.isFinite && value >= 0 }

    static func isDecimalCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
