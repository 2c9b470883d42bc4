import PoolSizeStats
import Testing

@Suite struct ClosedNetworkTests {
    /// N = 4, c = 2, S = 4, Z = 8. Weights p_k/p_0: 1, (4/8)/(1/4) = 2, 2·(3/8)/(2/4) = 1.5,
    /// 1.5·(2/8)/(2/4) = 0.75, 0.75·(1/8)/(2/4) = 0.1875; total 5.4375.
    /// X = [(1/4)·2 + (2/4)·(1.5 + 0.75 + 0.1875)] / 5.4375 = (0.5 + 1.21875) / 5.4375 = 0.316092.
    @Test func handComputedRepairman() {
        #expect(abs(ClosedNetwork.throughput(tasks: 4, servers: 2, serviceTime: 4, thinkTime: 8) - 0.316092) < 1e-6)
    }

    /// One task alone cycles in Z + S.
    @Test func oneTaskCyclesInThinkPlusService() {
        #expect(abs(ClosedNetwork.throughput(tasks: 1, servers: 2, serviceTime: 1, thinkTime: 15) - 1.0 / 16) < 1e-12)
    }

    /// Many tasks saturate the servers: X → c / S.
    @Test func saturatesAtTheCPUBound() {
        let x = ClosedNetwork.throughput(tasks: 2000, servers: 2, serviceTime: 1, thinkTime: 15)
        #expect(abs(x - 2) < 1e-9)
        #expect(ClosedNetwork.throughput(tasks: 5, servers: 2, serviceTime: 2, thinkTime: 0) == 1)
    }

    /// The model's knee lies past the formula's cores × (1 + Z/S): collisions cost throughput.
    @Test func kneeIsPastTheFormula() throws {
        let knee = try #require(ClosedNetwork.knee(servers: 2, serviceTime: 1, thinkTime: 15))
        #expect(knee > 32)
        #expect(knee < 48)
        // Throughput is monotone in N.
        let xs = (1...64).map { ClosedNetwork.throughput(tasks: $0, servers: 2, serviceTime: 1, thinkTime: 15) }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
    }
}
