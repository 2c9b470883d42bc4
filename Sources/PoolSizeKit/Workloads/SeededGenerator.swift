/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the one seeded generator behind jitter draws, read/write choices and the
/// shuffled trial order, so `--seed` reproduces all of them.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next value mapped to [0, 1) with 53 bits of precision.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
