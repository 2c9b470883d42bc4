import Foundation
import PoolSizeModel
import PoolSizeStats
import Testing

@testable import PoolSizeKit

/// The early-stopping rule on completions made up in simulated time: the window is judged
/// every 20 ms (or a twentieth of it) as `TrialRunner` judges it, on the ends up to then.
@Suite struct TrialStopRuleTests {
    /// When the rule first calls the throughput known within `length`, and the estimate then
    /// (or over the whole window when it never does).
    static func firstKnown(_ ends: [UInt64], rule: TrialStopRule, length: UInt64) -> (UInt64?, RateEstimate?) {
        var now: UInt64 = 0
        while now < length {
            now = min(length, now + max(TrialStopRule.checkNanoseconds, now / 20))
            let estimate = TrialStopRule.estimate(ends: ends.filter { $0 <= now }, start: 0, end: now)
            if rule.isKnown(estimate, elapsed: now) { return (now, estimate) }
        }
        return (nil, TrialStopRule.estimate(ends: ends, start: 0, end: length))
    }

    /// `chains` closed-loop chains whose tasks take `task` ± `jitter` ns, started before the
    /// window (at 0) so that it sees the steady state.
    static func closedLoop(chains: Int, task: UInt64, jitter: UInt64, seed: UInt64) -> [UInt64] {
        var random = SeededGenerator(seed: seed)
        var ends: [UInt64] = []
        for chain in 0..<chains {
            var time = Int64(chain) * Int64(task) / Int64(chains) - 200_000_000
            while time < 1_000_000_000 {
                time +=
                    Int64(task - jitter) + Int64(jitter == 0 ? 0 : UInt64.random(in: 0...(2 * jitter), using: &random))
                if time >= 0 { ends.append(UInt64(time)) }
            }
        }
        return ends.sorted()
    }

    let rule = TrialStopRule(margin: 0.02, taskNanoseconds: 16_000_000)

    @Test func theShortestWindowFollowsTheTask() {
        #expect(rule.minimumWindowNanoseconds == 128_000_000)
        #expect(TrialStopRule(margin: 0.02, taskNanoseconds: 1_000).minimumWindowNanoseconds == 100_000_000)
        #expect(TrialStopRule(margin: 0.02, taskNanoseconds: .max).minimumWindowNanoseconds == .max)
        #expect(rule.minimumCompletions == 300)
    }

    @Test func aSteadyClosedLoopIsKnownAtItsShortestWindow() throws {
        // 32 chains of 16 ms tasks: 2,000/s, two completions every millisecond. Judged at 20, 40, …
        // ms: at 140 ms the window is past its shortest (8 task periods, 128 ms) but holds 280
        // completions; at 160 ms it holds 320, past the 300.
        let ends = Self.closedLoop(chains: 32, task: 16_000_000, jitter: 0, seed: 1)
        let (known, estimate) = Self.firstKnown(ends, rule: rule, length: 480_000_000)
        #expect(known == 160_000_000)
        #expect(estimate?.eventsPerSecond == 2000)
        #expect(estimate?.relativeHalfWidth == 0)
    }

    @Test func aJitteredClosedLoopIsKnownBeforeItsPlannedWindow() throws {
        // Tasks of 15 to 17 ms: each completion drifts, but the loop stays regular.
        let ends = Self.closedLoop(chains: 32, task: 16_000_000, jitter: 1_000_000, seed: 7)
        let (known, estimate) = Self.firstKnown(ends, rule: rule, length: 480_000_000)
        let at = try #require(known)
        #expect(at < 480_000_000)
        let figure = try #require(estimate)
        #expect(figure.relativeHalfWidth <= 0.02)
        #expect(abs(figure.eventsPerSecond - 2000) / 2000 < 0.02)
    }

    @Test func poissonCompletionsAreNotKnownWithinAShortWindow() throws {
        // Completions at random (exponential gaps, 2,000/s): ±2% needs about 10,000 of them,
        // five seconds; a 480 ms window has about 960.
        var random = SeededGenerator(seed: 3)
        var ends: [UInt64] = [], time = 0.0
        while time < 0.48 {
            time += -log(1 - Double.random(in: 0..<1, using: &random)) / 2000
            ends.append(UInt64(time * 1e9))
        }
        let (known, estimate) = Self.firstKnown(ends, rule: rule, length: 480_000_000)
        #expect(known == nil)
        let figure = try #require(estimate)
        #expect(figure.relativeHalfWidth > 0.04)
    }

    @Test func tooFewCompletionsAreNeverKnown() throws {
        // 8 chains of 16 ms: 500/s, 240 completions in 480 ms, fewer than 300.
        let ends = Self.closedLoop(chains: 8, task: 16_000_000, jitter: 0, seed: 1)
        let (known, estimate) = Self.firstKnown(ends, rule: rule, length: 480_000_000)
        #expect(known == nil)
        #expect(estimate?.relativeHalfWidth == 0)
        #expect(estimate?.events == 240)
    }

    @Test func aRateStillSettlingIsNotKnown() throws {
        // Each batch steady, the rate climbing 1,000/s → 2,000/s over the window.
        var ends: [UInt64] = []
        var time = 0.0
        while time < 0.48 {
            time += 1 / (1000 + 1000 * time / 0.48)
            ends.append(UInt64(time * 1e9))
        }
        let (known, estimate) = Self.firstKnown(ends, rule: rule, length: 480_000_000)
        #expect(known == nil)
        #expect((estimate?.halvesDifference ?? 0) > 0.04)
    }

    @Test func endsAreBinnedFromTheWindowsStartInWholeBins() throws {
        // Ends before the start (5) and past the last whole bin (4_000_010: the window from 10
        // to 4_500_000 holds 4 whole bins of 1 ms, the last ending at 4_000_010) are left out.
        let ends: [UInt64] = [5, 1_000_010, 1_500_000, 2_000_009, 3_999_999, 4_000_010, 4_600_000]
        let estimate = try #require(TrialStopRule.estimate(ends: ends, start: 10, end: 4_500_000))
        #expect(estimate.events == 4)
        #expect(estimate.seconds == 0.004)
        #expect(TrialStopRule.estimate(ends: ends, start: 10, end: 10) == nil)
    }
}
