import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// The rules of thumb a server sweep measures beside its recommendation, on curves built by hand.
@Suite struct RuleOfThumbTests {
    @Test func eachRuleGivesItsSizeOnTheCores() {
        #expect(RuleOfThumb.allCases.map { $0.size(cores: 2) } == [2, 3, 5])
        #expect(RuleOfThumb.allCases.map { $0.size(cores: 8) } == [8, 9, 17])
        #expect(RuleOfThumb.sizes(cores: 1) == [1, 2, 3])
    }

    /// Sizes 1…8 on 2 cores with the knee at 4 (800/s); 5 gives 472/s, 59% of it; 3 was not
    /// measured.
    @Test func eachRuleIsSaidAgainstTheRecommendation() {
        let curve: [(Int, Double)] = [(1, 200), (2, 400), (4, 800), (5, 472), (8, 790)]
        let records = curve.flatMap { size, throughput in
            [0.98, 1.02].enumerated().map { rep, factor in
                var r = RecommenderTests.record(size, throughput * factor, rep: rep + 1)
                r.latency.p99 = Double(size) * 10_000
                return r
            }
        }
        let results = RuleOfThumbResult.compare(ConfigurationSummary.summarize(records), recommended: 4, cores: 2)
        #expect(results.map(\.size) == [2, 3, 5])
        #expect(results[0].change == 400.0 / 800.0 - 1)
        #expect(results[1].throughputPerSecond == nil)
        #expect(abs(results[2].change! - (472.0 / 800.0 - 1)) < 1e-12)
        #expect(
            results.map(\.sentence) == [
                "cores = 2: 400/s, −50% of the recommended 4's throughput, p99 20.0 ms",
                "cores + 1 = 3: no valid trial at this size",
                "2 × cores + 1 = 5: 472/s, −41% of the recommended 4's throughput, p99 50.0 ms",
            ])
    }

    @Test func theRecommendedSizeIsSaidSo() {
        let records = [RecommenderTests.record(2, 500), RecommenderTests.record(3, 510)]
        let results = RuleOfThumbResult.compare(ConfigurationSummary.summarize(records), recommended: 2, cores: 2)
        #expect(results[0].sentence == "cores = 2: the recommended size")
        #expect(results[1].sentence == "cores + 1 = 3: 510/s, +2% of the recommended 2's throughput")
    }

    /// A recommendation from the formula past the sizes measured has no throughput of its own:
    /// the rules are said against the best size measured instead, and say so.
    @Test func withoutTheRecommendedSizeTheBestMeasuredIsTheReference() {
        let records = [RecommenderTests.record(2, 500), RecommenderTests.record(8, 1000)]
        let results = RuleOfThumbResult.compare(ConfigurationSummary.summarize(records), recommended: 16, cores: 2)
        #expect(results.map(\.recommendedSize) == [8, 8, 8])
        #expect(results[0].sentence == "cores = 2: 500/s, −50% of the best measured size 8's throughput")
        #expect(RuleOfThumbResult.compare([], recommended: 4, cores: 2).isEmpty)
    }
}
