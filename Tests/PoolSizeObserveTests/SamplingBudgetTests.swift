import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// The automatic rate on a cost model, no clock: a sweep of 5000 threads at 20 µs of the
/// observer's CPU per thread costs 0.1 s, the first and the last (with status) the same. The
/// sampler's loop is replayed (Poisson gaps from a seeded schedule, a sweep only while
/// `allowsSweep`) and the total set against the promised 1% of one core.
struct SamplingBudgetTests {
    static let sweepSeconds = 5000 * 20e-6

    /// Replays `Sampler.run`'s loop for `seconds`; the CPU spent and the sweeps between the
    /// first and the last.
    static func replay(seconds: Double, seed: UInt64) -> (cpuSeconds: Double, between: Int) {
        var budget = SamplingBudget(rate: .standard, plannedSeconds: seconds)
        var schedule = PoissonSchedule(generator: PoissonScheduleTests.Counter(state: seed))
        budget.firstSwept(costSeconds: sweepSeconds)
        var now = 0.0, spent = sweepSeconds, between = 0
        while true {
            let gap = schedule.nextGap(meanSeconds: budget.meanGapSeconds(elapsedSeconds: now))
            if now + gap >= seconds || !budget.allowsSweep { break }
            now += gap
            spent += sweepSeconds
            between += 1
            budget.swept(cycleSeconds: sweepSeconds, spentSeconds: spent)
        }
        return (spent + sweepSeconds, between)
    }

    /// A minute: the two boundary sweeps take 0.33%, which leaves room for a few between. Each
    /// of 50 schedules stays within 1% of one core; the old rule (the first gap at the full
    /// rate, then one sweep per 0.1 s / 0.8% = 12.5 s, nothing set aside for the last sweep)
    /// spent 0.1 × (3 + 4.8) ≈ 0.78 s, 1.3%, on average.
    @Test func fiveThousandThreadsStayWithinThePromise() {
        var sweeps = 0
        for seed in 1...50 {
            let (cpu, between) = Self.replay(seconds: 60, seed: UInt64(seed))
            #expect(cpu / 60 <= SamplingBudget.ceilingFraction, "seed \(seed): \(cpu / 60) of one core")
            sweeps += between
        }
        #expect(sweeps >= 50, "the budget still leaves sweeps between the first and the last")
    }

    /// Ten seconds: the first and the last sweep alone take 2%, so none comes between them.
    @Test func whenTheBoundarySweepsAloneBreakItNoneComesBetween() {
        for seed in 1...20 {
            #expect(Self.replay(seconds: 10, seed: UInt64(seed)).between == 0)
        }
    }

    /// A cheap sweep runs at the full 100 Hz; otherwise what is left of the budget is spread over
    /// what is left of the minute.
    @Test func theGapSpreadsWhatIsLeftOverTheTimeLeft() {
        var budget = SamplingBudget(rate: .standard, plannedSeconds: 60)
        budget.firstSwept(costSeconds: 0.01)
        #expect(budget.meanGapSeconds(elapsedSeconds: 0) == 0.01, "the first cycle, at the full rate, costs itself")
        budget.swept(cycleSeconds: 0.000_01, spentSeconds: 0.010_01)
        #expect(budget.meanGapSeconds(elapsedSeconds: 1) == 0.01)
        // 0.2 s spent 10 s in, 0.01 s per cycle, 0.01 s reserve: 0.48 − 0.21 = 0.27 s left for
        // 50 s, a cycle every 0.01 × 50 / 0.27 = 1.85 s.
        budget = SamplingBudget(rate: .standard, plannedSeconds: 60)
        budget.firstSwept(costSeconds: 0.01)
        budget.swept(cycleSeconds: 0.01, spentSeconds: 0.2)
        #expect(abs(budget.meanGapSeconds(elapsedSeconds: 10) - 0.01 * 50 / 0.27) < 1e-9)
        #expect(budget.allowsSweep)
        budget.swept(cycleSeconds: 0.01, spentSeconds: 0.59)
        #expect(!budget.allowsSweep, "0.61 s would pass 1% of 60 s")
        #expect(budget.meanGapSeconds(elapsedSeconds: 10) == 50, "nothing left: no sweep before the last")
        #expect(
            SamplingBudget(rate: .fixed(perSecond: 20), plannedSeconds: 1).meanGapSeconds(elapsedSeconds: 0) == 0.05)
    }

    /// A JVM of 30 threads: the first sweep (every file opened, every status read) cost 11.5 ms,
    /// the others 0.9 ms. Seeded with the first sweep's cost and paced by its debt, 15 s held 9
    /// sweeps; spread evenly, the 0.12 s budget less 23 ms for the boundary sweeps pays for
    /// about 107 between them, and the total stays within 1% of one core.
    @Test func aCostlyFirstSweepDoesNotThinOutTheRest() {
        for seed in 1...20 {
            var budget = SamplingBudget(rate: .standard, plannedSeconds: 15)
            var schedule = PoissonSchedule(generator: PoissonScheduleTests.Counter(state: UInt64(seed)))
            budget.firstSwept(costSeconds: 0.0115)
            var now = 0.0, spent = 0.0115, between = 0
            while true {
                let gap = schedule.nextGap(meanSeconds: budget.meanGapSeconds(elapsedSeconds: now))
                if now + gap >= 15 || !budget.allowsSweep { break }
                now += gap
                spent += 0.0009
                between += 1
                budget.swept(cycleSeconds: 0.0009, spentSeconds: spent)
            }
            #expect((80...125).contains(between), "seed \(seed): \(between) sweeps")
            #expect((spent + 0.0115) / 15 <= SamplingBudget.ceilingFraction)
        }
    }
}
