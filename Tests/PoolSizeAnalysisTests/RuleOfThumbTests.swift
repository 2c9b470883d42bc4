import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// The rules of thumb a sweep measures beside its recommendation, by the pool it sizes (a
/// server's threads, a database's connections), on curves built by hand.
@Suite struct RuleOfThumbTests {
    @Test func eachRuleGivesItsSizeOnTheCores() {
        #expect(RuleSet.threadPool(cores: 2).sized.map(\.size) == [2, 3, 5])
        #expect(RuleSet.threadPool(cores: 8).sized.map(\.size) == [8, 9, 17])
        #expect(RuleSet.threadPool(cores: 1).sizes == [1, 2, 3])
        #expect(RuleSet.threadPool(cores: 2).sized.map(\.rule) == [.cores, .coresPlusOne, .twiceCoresPlusOne])
    }

    /// A connection pool's rules: HikariCP's (cores × 2) + 1 on the server's cores, and the
    /// server's connection limit; without a known limit, HikariCP's alone.
    @Test func aConnectionPoolHasHikariAndTheServersLimit() {
        let local = RuleSet.connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 97)
        #expect(local.sized.map(\.rule) == [.hikari, .maxConnections])
        #expect(local.sizes == [5, 97])
        #expect(
            local.heading
                == "rules of thumb for a connection pool, on the database server's 2 cores (it runs on this machine)")
        let remote = RuleSet.connectionPool(cores: 4, serverIsLocal: false, connectionLimit: nil)
        #expect(remote.sizes == [9])
        #expect(
            remote.heading
                == "rules of thumb for a connection pool, on this machine's 4 cores (the database server's are not known here)"
        )
        #expect(RuleSet.threadPool(cores: 2).heading == "rules of thumb on 2 cores")
    }

    /// The target chooses the rules: a server's threads, a database's connections; none for
    /// poolsize's own pools.
    @Test func theTargetChoosesTheRules() {
        let database = DatabaseSetup(
            connection: "postgresql://REDACTED@127.0.0.1:5432/db", connectionLimit: 7, serverIsLocal: true,
            statementTimeoutSeconds: 60)
        #expect(
            SweepTarget.database(database).ruleSet(cores: 2)
                == .connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 7))
        #expect(SweepTarget.database(database).sizeLimit == 7)
        #expect(SweepTarget.inProcess.ruleSet(cores: 2) == nil)
        #expect(SweepTarget.inProcess.sizeLimit == nil)
    }

    /// On a connection pool's curve (knee at 9 on 2 cores): HikariCP's 5 and the limit 16.
    @Test func aConnectionPoolsRulesAreSaidAgainstTheRecommendation() {
        let curve: [(Int, Double)] = [(1, 400), (5, 1_641), (9, 1_675), (16, 1_500)]
        let records = curve.map { RecommenderTests.record($0.0, $0.1) }
        let results = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 9,
            rules: .connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 16))
        #expect(
            results.map(\.sentence) == [
                "HikariCP (cores × 2) + 1 = 5: 1641/s, −2.03% of the recommended 9's throughput",
                "max_connections = 16: 1500/s, −10.4% of the recommended 9's throughput",
            ])
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
        let results = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 4, rules: .threadPool(cores: 2))
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
        let records = [
            RecommenderTests.record(1, 260), RecommenderTests.record(2, 500), RecommenderTests.record(3, 510),
        ]
        let results = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 2, rules: .threadPool(cores: 2))
        #expect(results[0].sentence == "cores = 2: the recommended size")
        #expect(results[1].sentence == "cores + 1 = 3: 510/s, +2% of the recommended 2's throughput")
    }

    /// A rule's size that is the recommendation but the smallest (or largest) size measured is
    /// no knee the curve shows: the orders pool measured at 5, 6, 112 and 196 only (the search's
    /// old bracket) said "HikariCP … = 5: the recommended size", the rule confirming itself.
    @Test func aRulesSizeAtTheEdgeOfTheCurveIsNotConfirmed() {
        let records = [(5, 10_900.0), (6, 10_700), (112, 6_000), (196, 5_200)].map {
            RecommenderTests.record($0.0, $0.1)
        }
        let results = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 5,
            rules: .connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 196))
        #expect(
            results.map(\.sentence) == [
                "HikariCP (cores × 2) + 1 = 5: the recommended size, but no size below it was measured, so the curve does not show it is the knee",
                "max_connections = 196: 5200/s, −52.3% of the recommended 5's throughput",
            ])
        let top = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 196,
            rules: .connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 196))
        #expect(
            top.last?.sentence
                == "max_connections = 196: the recommended size, but no size above it was measured, so the curve does not show it is the knee"
        )
    }

    /// An adaptive search that started at the formula's 20 measured nothing below 10: the
    /// rules' 2, 3 and 5 are said with what the smallest measured size gave, and a rule past
    /// the largest measured size with what that one gave.
    @Test func aRuleOutsideTheSearchedSizesIsSaidWithTheNearestMeasured() {
        let records = [(10, 998.0), (15, 1_480), (17, 1_690), (20, 1_760), (40, 1_790)].map {
            RecommenderTests.record($0.0, $0.1)
        }
        // The rules against the recommended 17 of these records.
        func compare(_ rules: RuleSet, attempted: Set<Int> = [], alone: Double? = nil) -> [RuleOfThumbResult] {
            RuleOfThumbResult.compare(
                ConfigurationSummary.summarize(records), recommended: 17, rules: rules, attempted: attempted,
                aloneMicroseconds: alone)
        }
        let results = compare(.threadPool(cores: 2))
        #expect(
            results.first?.sentence
                == "cores = 2: not measured; the smallest size measured, 10, gave 998/s, −40.9% of the recommended 17's throughput, and on a rising curve a smaller pool gives less"
        )
        #expect(results.allSatisfy { $0.throughputPerSecond == nil && $0.nearestSize == 10 })
        // With a task's time alone, 10.6 ms: 2 at a time finish at most 2 / 10.6 ms = 188.7/s,
        // −88.8% of 1690/s; 2 × 2 + 1 = 5 at most 471.7/s, −72.1%.
        let bounded = compare(.threadPool(cores: 2), alone: 10_600)
        #expect(
            bounded.map(\.sentence) == [
                "cores = 2: not measured; at most about 189/s, −88.8% of the recommended 17's throughput: 2 at a time, each taking about the 10.6 ms one takes alone or longer",
                "cores + 1 = 3: not measured; at most about 283/s, −83.3% of the recommended 17's throughput: 3 at a time, each taking about the 10.6 ms one takes alone or longer",
                "2 × cores + 1 = 5: not measured; at most about 472/s, −72.1% of the recommended 17's throughput: 5 at a time, each taking about the 10.6 ms one takes alone or longer",
            ])
        // A rule's size whose trials were all invalid was measured: it had no valid trial.
        let tried = compare(.threadPool(cores: 2), attempted: [2, 10, 15, 17, 20, 40], alone: 10_600)
        #expect(tried.first?.sentence == "cores = 2: no valid trial at this size")
        // On one core the rule's 1 lies below the sizes searched too.
        let one = compare(.threadPool(cores: 1))
        #expect(one.first?.nearestSize == 10)
        let pool = compare(.connectionPool(cores: 2, serverIsLocal: true, connectionLimit: 100))
        #expect(
            pool.last?.sentence
                == "max_connections = 100: not measured; the largest size measured, 40, gave 1790/s, +5.92% of the recommended 17's throughput"
        )
    }

    /// A recommendation from the formula past the sizes measured has no throughput of its own:
    /// the rules are said against the best size measured instead, and say so.
    @Test func withoutTheRecommendedSizeTheBestMeasuredIsTheReference() {
        let records = [RecommenderTests.record(2, 500), RecommenderTests.record(8, 1000)]
        let results = RuleOfThumbResult.compare(
            ConfigurationSummary.summarize(records), recommended: 16, rules: .threadPool(cores: 2))
        #expect(results.map(\.recommendedSize) == [8, 8, 8])
        #expect(results[0].sentence == "cores = 2: 500/s, −50% of the best measured size 8's throughput")
        #expect(RuleOfThumbResult.compare([], recommended: 4, rules: .threadPool(cores: 2)).isEmpty)
    }
}
