import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// `poolsize compare` of open-loop runs, read back from their files as `compare` reads them.
@Suite struct OpenLoopCompareTests {
    static func compare(_ base: RunData, _ current: RunData) throws -> RunComparison {
        let (b, c) = (
            try OpenLoopFixtures.directory(base, id: "base"), try OpenLoopFixtures.directory(current, id: "head")
        )
        return try RunComparator.compare(
            base: CompareRunReader.load(b.path), current: CompareRunReader.load(c.path), threshold: 0.05)
    }

    static func incomparable(_ base: RunData, _ current: RunData) throws -> String? {
        do {
            _ = try compare(base, current)
            return nil
        } catch let error as PoolSizeError {
            guard case let .incomparable(details) = error else { return "\(error)" }
            return details
        }
    }

    @Test func aRunAgainstItselfIsUnchanged() throws {
        let c = try Self.compare(OpenLoopFixtures.single, OpenLoopFixtures.single)
        #expect(c.verdict == .unchanged)
        #expect(c.regressions == 0)
        #expect(c.configurations.isEmpty)
        let open = try #require(c.openLoop)
        #expect(open.sizes.map(\.poolSize) == [8, 16, 17, 20, 24])
        #expect(open.sizes.map(\.baseMet) == [false, false, false, true, true])
        #expect(open.sizings.map(\.base) == [20])
        #expect(
            c.summary
                == "No size lost the objective (p99 ≤ 40.0 ms) and no recommendation grew beyond one size step in 5 size(s) compared."
        )
    }

    /// 20 met 40 ms in the base run (23.3 ms) and misses it now (45 ms): a regression, though the
    /// recommendation only moved one size step (20 → 24).
    @Test func aSizeThatLostTheObjectiveRegresses() throws {
        let current = OpenLoopFixtures.with(OpenLoopFixtures.single, size: 20, p99: 45)
        let c = try Self.compare(OpenLoopFixtures.single, current)
        #expect(c.verdict == .regression)
        let open = try #require(c.openLoop)
        #expect(open.sizes.filter(\.lost).map(\.poolSize) == [20])
        #expect(
            open.sizings.map(\.base) == [20] && open.sizings.map(\.current) == [24]
                && open.sizings.map(\.grew) == [false])
        #expect(
            c.summary
                == "The open-loop sizing regressed: queue-pool/default/none N = 20 at 1000/s met p99 ≤ 40.0 ms in the base run (23.3 ms) and misses it now (45.0 ms)."
        )
        try GoldenFile.check(ComparisonReport.render(c), "openloop/compare.md")
        let json = JSONExport.serialize(c)
        #expect(json.contains("\"lost\" : true"))
        #expect(json.contains("\"latency_slo_us\" : 40000"))
        #expect(json.contains("\"base_percentile_us\" : 23300"))
        #expect(json.contains("\"verdict\" : \"regression\""))
    }

    /// Over a range: at 1500/s nothing meets the objective any more (32 now falls behind).
    @Test func noSizeMeetingItAnyMoreIsARecommendationThatGrew() throws {
        let current = OpenLoopFixtures.with(OpenLoopFixtures.range, size: 32, rate: 1500, p99: 900, stable: false)
        let c = try Self.compare(OpenLoopFixtures.range, current)
        #expect(c.verdict == .regression)
        let open = try #require(c.openLoop)
        #expect(open.sizings.map(\.grew) == [false, false, true])
        #expect(open.sizings.map(\.base) == [17, 24, 32] && open.sizings.map(\.current) == [17, 24, nil])
        #expect(
            c.summary.hasPrefix(
                "The open-loop sizing regressed: queue-pool/default/none at 1500/s: recommended 32 → none met it; queue-pool/default/none N = 32 at 1500/s met p99 ≤ 40.0 ms in the base run (26.0 ms) and misses it now (fell behind, 900 ms)."
            ))
        let text = ComparisonReport.render(c)
        #expect(
            text.contains("| queue-pool | default | none | 1500/s | 32 | none met it | **grew beyond one size step** |")
        )
        #expect(
            text.contains(
                "| queue-pool | default | none | 1500/s | 32 | met | fell behind | 26.0 ms | 900 ms | +3361.5% | **lost the objective** |"
            ))
    }

    /// A size that now meets the objective and a smaller recommendation are an improvement.
    @Test func gainingTheObjectiveIsAnImprovement() throws {
        let current = OpenLoopFixtures.with(OpenLoopFixtures.single, size: 17, p99: 30)
        let c = try Self.compare(OpenLoopFixtures.single, current)
        #expect(c.verdict == .improvement)
        #expect(c.openLoop?.sizings.map(\.base) == [20] && c.openLoop?.sizings.map(\.current) == [17])
        #expect(c.openLoop?.sizes.filter(\.gained).map(\.poolSize) == [17])
    }

    @Test func openAgainstClosedIsRefused() throws {
        var closed = ReportFixtures.single
        closed.info?.plan?.spec = OpenLoopFixtures.single.plan!.spec
        let details = try Self.incomparable(OpenLoopFixtures.single, closed)
        #expect(
            details
                == "base base is an open-loop run (poisson arrivals at 1000/s, p99 ≤ 40.0 ms) and current head a closed loop; compare two runs of the same kind"
        )
        #expect(
            try Self.incomparable(closed, OpenLoopFixtures.single)?.hasPrefix(
                "base base is a closed loop and current head an open-loop run") == true)
    }

    @Test(arguments: ["rates", "process", "percentile", "objective"])
    func differentArrivalsOrObjectivesAreRefused(what: String) throws {
        let current = OpenLoopFixtures.changingArrival(OpenLoopFixtures.single) { arrival in
            switch what {
            case "rates": arrival.rates = [1000, 1500]
            case "process": arrival.process = .uniform
            case "percentile": arrival.sloPercentile = 99.9
            default: arrival.latencySLOMicroseconds = 50_000
            }
        }
        let details = try #require(try Self.incomparable(OpenLoopFixtures.single, current))
        let expected = [
            "rates": "rates 1000/s vs 1000/s, 1500/s", "process": "arrivals poisson vs uniform",
            "percentile": "percentile p99 vs p99.9", "objective": "objective p99 ≤ 40.0 ms vs p99 ≤ 50.0 ms",
        ][what]!
        #expect(
            details
                == "the open-loop runs differ in \(expected) (base base, current head); compare runs swept with the same `arrivalRates`, `arrivalProcess`, `latencySLO` and `sloPercentile`"
        )
    }
}

@Suite struct OpenLoopSizingStepCompareTests {
    static let combination = Combination(pool: .queuePool, qos: .default, primitive: .none)

    @Test func oneSizeStepIsNoise() {
        let sizes = [8, 16, 17, 20, 24, 32]
        let step = { (b: Int?, c: Int?) in
            OpenLoopSizingComparison(
                combination: Self.combination, arrivalRate: 1000, base: b, current: c, sizes: sizes
            ).grew
        }
        #expect(step(17, 20) == false)  // the next size measured
        #expect(step(17, 24) == true)
        #expect(step(20, 17) == false)  // smaller is never a regression
        #expect(step(32, 32) == false)
        #expect(step(20, nil) == true)  // nothing meets it any more
        #expect(step(nil, 20) == false)
        #expect(step(nil, nil) == false)
    }
}
