import PoolSizeKit
import PoolSizeModel
import Testing

@Suite struct ContentionTests {
    /// Every tier runs and the shares partition the total; nice is recorded per tier, so a tier
    /// whose nice did not take effect shows it. (How big each share is depends on the machine.)
    @Test func sharesPartitionTheTotal() {
        let shares = ContentionRunner(burner: CPUBurner()).run(
            tiers: [.default, .background], cores: 1, seconds: 0.3, seed: 1)
        #expect(shares.map(\.qos) == [.default, .background])
        #expect(abs(shares.map(\.share).reduce(0, +) - 1) < 1e-9)
        #expect(shares.allSatisfy { $0.throughputPerSecond > 0 && $0.share > 0 && $0.share < 1 })
        // Positive nice needs no privileges: background's workers must run at +10.
        #expect(shares[1].effectiveNice == 10)
        #expect(shares[0].effectiveNice == 0)
    }
}
