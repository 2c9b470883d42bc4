import PoolSizeStats
import Testing

/// Conversions of figures that may come from a damaged file never trap.
@Suite struct SaturatingTests {
    @Test(
        arguments: [
            (0.0, 0), (-0.0, 0), (1e-300, 0), (2.9, 2), (-2.9, -2), (1e300, Int.max), (-1e300, Int.min),
            (Double.infinity, Int.max), (-Double.infinity, Int.min), (Double.nan, 0), (9.3e18, Int.max),
        ] as [(Double, Int)])
    func intClampsToItsRange(value: Double, expected: Int) {
        #expect(Int(saturating: value) == expected)
    }

    @Test(
        arguments: [
            (0.0, 0), (-5.0, 0), (1e-300, 0), (3.7, 3), (1e300, UInt64.max), (Double.infinity, UInt64.max),
            (Double.nan, 0), (18_446_744_073_709_549_568.0, 18_446_744_073_709_549_568),
        ] as [(Double, UInt64)])
    func uint64ClampsToItsRange(value: Double, expected: UInt64) {
        #expect(UInt64(saturating: value) == expected)
    }
}
