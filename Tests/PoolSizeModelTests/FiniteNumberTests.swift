import PoolSizeModel
import Testing

/// The one rule every reader applies to a number in a file.
@Suite struct FiniteNumberTests {
    @Test(arguments: [
        ("12", 12.0), ("-0.5", -0.5), ("1.5e3", 1500.0), ("+7", 7.0), ("1e-300", 1e-300), ("1e300", 1e300),
        ("9223372036854775808", 9_223_372_036_854_775_808.0),
    ])
    func decimalsAreNumbers(text: String, value: Double) {
        #expect(FiniteNumber.parse(text) == value)
    }

    /// Swift's Double(_:) reads every one of these; none is a measurement.
    @Test(arguments: [
        "nan", "NaN", "inf", "-inf", "infinity", "0x10", "0x1p3", "1e400", "-1e400", "", " 1", "1,5", "1_000", "٣",
    ])
    func anythingElseIsNot(text: String) {
        #expect(FiniteNumber.parse(text) == nil)
    }

    @Test func aQuantityIsNotNegativeAndMinusZeroIsZero() throws {
        #expect(FiniteNumber.quantity("-1") == nil)
        #expect(FiniteNumber.quantity("-1e-300") == nil)
        let zero = try #require(FiniteNumber.quantity("-0"))
        #expect(zero == 0 && zero.sign == .plus)
        #expect(FiniteNumber.quantity("0.25") == 0.25)
        #expect(
            FiniteNumber.isQuantity(0) && !FiniteNumber.isQuantity(-1) && !FiniteNumber.isQuantity(.nan)
                && !FiniteNumber.isQuantity(.infinity))
    }
}
