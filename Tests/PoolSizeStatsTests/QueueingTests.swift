import Testing
import PoolSizeStats

@Suite struct QueueingTests {
    @Test func erlangCSmallCasesByHand() {
        // c = 2, a = 1: B(1) = 1/(1+1) = 1/2, B(2) = 1·½/(2 + ½) = 1/5;
        // C = c·B/(c − a(1 − B)) = (2/5)/(2 − 4/5) = (2/5)/(6/5) = 1/3.
        #expect(isClose(Queueing.erlangB(servers: 2, offeredLoad: 1), 0.2, within: 1e-15))
        #expect(isClose(Queueing.erlangC(servers: 2, offeredLoad: 1), 1.0 / 3, within: 1e-15))
        // M/M/1: C = ρ. c = 1, a = 0.5: B = 0.5/1.5 = 1/3; C = (1/3)/(1 − 0.5·2/3) = 0.5.
        #expect(isClose(Queueing.erlangC(servers: 1, offeredLoad: 0.5), 0.5, within: 1e-15))
    }

    @Test func erlangCTenServersEightErlangs() {
        // Erlang B by the recurrence B(k) = 8·B(k−1)/(k + 8·B(k−1)), B(0) = 1:
        // B1 = 8/9 = 0.888889, B2 = 7.111111/9.111111 = 0.780488, B3 = 6.243902/9.243902 = 0.675462,
        // B4 = 5.403694/9.403694 = 0.574635, B5 = 4.597083/9.597083 = 0.479008,
        // B6 = 3.832066/9.832066 = 0.389752, B7 = 3.118015/10.118015 = 0.308165,
        // B8 = 2.465318/10.465318 = 0.235570, B9 = 1.884562/10.884562 = 0.173141,
        // B10 = 1.385127/11.385127 = 0.121661.
        // C = 10·0.121661/(10 − 8·(1 − 0.121661)) = 1.216611/2.973289 = 0.409180.
        #expect(isClose(Queueing.erlangB(servers: 10, offeredLoad: 8), 0.121661, within: 1e-6))
        #expect(isClose(Queueing.erlangC(servers: 10, offeredLoad: 8), 0.409180, within: 1e-6))
    }

    @Test func erlangCIsStableForTenThousandServers() {
        // Reference 0.22277692886414824 from the textbook sum formula evaluated in 50-digit
        // arithmetic (mpmath); a naive Double evaluation overflows at 9900^10000. Sanity check:
        // the Halfin–Whitt limit with β = 100/√9900 = 1.005 gives 0.2214.
        #expect(isClose(Queueing.erlangC(servers: 10_000, offeredLoad: 9_900), 0.222776928864148, within: 1e-10))
    }

    @Test func overloadAndDegenerateLoads() {
        #expect(Queueing.erlangC(servers: 4, offeredLoad: 4) == 1)
        #expect(Queueing.erlangC(servers: 4, offeredLoad: 9) == 1)
        #expect(Queueing.erlangC(servers: 4, offeredLoad: 0) == 0)
        #expect(Queueing.erlangB(servers: 0, offeredLoad: 3) == 1)
    }

    @Test func meanWaitMatchesMM1ClosedForm() throws {
        // M/M/1: Wq = ρ/(μ − λ). λ = 0.5, μ = 1 → 0.5/0.5 = 1; λ = 3, μ = 4 → 0.75/1 = 0.75.
        #expect(
            isClose(try #require(Queueing.mmcMeanWait(servers: 1, arrivalRate: 0.5, serviceRate: 1)), 1, within: 1e-12))
        #expect(
            isClose(try #require(Queueing.mmcMeanWait(servers: 1, arrivalRate: 3, serviceRate: 4)), 0.75, within: 1e-12)
        )
        // Unstable: λ ≥ cμ.
        #expect(Queueing.mmcMeanWait(servers: 2, arrivalRate: 2, serviceRate: 1) == nil)
        #expect(Queueing.mmcMeanWait(servers: 0, arrivalRate: 1, serviceRate: 1) == nil)
    }

    @Test func waitQuantileThreeServers() throws {
        // c = 3, λ = 2, μ = 1 (a = 2): B1 = 2/3, B2 = (4/3)/(10/3) = 2/5, B3 = (4/5)/(19/5) = 4/19;
        // C = (12/19)/(3 − 2·15/19) = (12/19)/(27/19) = 4/9. Drain rate cμ − λ = 1.
        // Wq = (4/9)/1 = 0.444444; p90: (4/9)e^{−t} = 0.1 → t = ln(4.444444) = 1.491655;
        // median: 1 − 0.5 = 0.5 ≥ C → 0 (more than half the arrivals do not wait at all).
        #expect(
            isClose(
                try #require(Queueing.mmcMeanWait(servers: 3, arrivalRate: 2, serviceRate: 1)), 4.0 / 9, within: 1e-12))
        #expect(
            isClose(
                try #require(Queueing.mmcWaitQuantile(servers: 3, arrivalRate: 2, serviceRate: 1, percentile: 90)),
                1.491655, within: 1e-6))
        #expect(Queueing.mmcWaitQuantile(servers: 3, arrivalRate: 2, serviceRate: 1, percentile: 50) == 0)
        #expect(Queueing.mmcWaitQuantile(servers: 3, arrivalRate: 2, serviceRate: 1, percentile: 100) == nil)
    }

    @Test func littlesLaw() {
        // 200 tasks/s × 0.05 s each = 10 tasks in the system on average.
        #expect(isClose(Queueing.littlesLaw(arrivalRate: 200, timeInSystem: 0.05), 10, within: 1e-12))
    }

    @Test func minimumServersByUtilizationAndWait() {
        // λ = 2, μ = 1, U ≤ 0.8 → c ≥ 2/0.8 = 2.5 → 3.
        #expect(Queueing.minimumServers(arrivalRate: 2, serviceRate: 1, maxUtilization: 0.8) == 3)
        // Add p90 wait ≤ 0.5: c = 3 waits 1.491655 (above). c = 4: B4 = (8/19)/(84/19) = 2/21,
        // C = (8/21)/(4 − 38/21) = 8/46 = 4/23; p90 = ln((4/23)/0.1)/(4 − 2) = 0.276692 ≤ 0.5 → 4.
        #expect(
            Queueing.minimumServers(
                arrivalRate: 2, serviceRate: 1, maxUtilization: 0.8, waitLimit: (percentile: 90, seconds: 0.5)) == 4)
        // U ≤ 1 still needs c > a for a stable queue: a = 2 → 3.
        #expect(Queueing.minimumServers(arrivalRate: 2, serviceRate: 1) == 3)
        #expect(Queueing.minimumServers(arrivalRate: 2, serviceRate: 0) == nil)
    }
}
