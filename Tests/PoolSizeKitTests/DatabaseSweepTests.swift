import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

/// A database sweep's plan (`SweepTarget.database`) on scripted trials: the server's connection
/// limit bounds `auto`, the search and the rules' sizes; the connection pool's rules are
/// measured beside the plan's sizes; the target is recorded and read back whole.
@Suite struct DatabaseSweepTests {
    static func setup(limit: Int?) -> DatabaseSetup {
        DatabaseSetup(
            connection: "postgresql://REDACTED@127.0.0.1:5432/bench", connectionLimit: limit, serverIsLocal: true,
            statementTimeoutSeconds: 60)
    }

    /// W/C = 1 on 4 cores (the formula's N is 8), throughput rising at every size, the server
    /// allowing 6 connections: the search and the grid both stop at 6, and HikariCP's 9 is
    /// past it, so the limit is the one rule measured.
    @Test func autoNeverPassesTheConnectionLimit() throws {
        var plan = AdaptiveSweepTests.plan()
        plan.target = .database(Self.setup(limit: 6))
        #expect(plan.ruleSizes == [6])
        #expect(plan.sizeSearch(prediction: 8).upper == 6)
        let searched = ScriptedTrials { Double($0) * 500 }
        let search = try SweepRunner(measurer: searched, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: AdaptiveSweepTests.SearchObserver())
        #expect(search.records.map(\.poolSize).max() == 6)
        #expect(searched.requests.allSatisfy { $0.size <= 6 })
        plan.search = .grid
        plan.repetitions = 1
        let grid = ScriptedTrials { Double($0) * 500 }
        let result = try SweepRunner(measurer: grid, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: AdaptiveSweepTests.SearchObserver())
        #expect(Set(result.records.map(\.poolSize)) == [1, 2, 4, 6])
        #expect(grid.requests.allSatisfy { $0.size <= 6 })
    }

    /// Explicit sizes 1 and 2 on 4 cores, 20 connections allowed: HikariCP's 9 and the limit 20
    /// are measured beside them; the same plan of poolsize's own pools measures neither.
    @Test func theConnectionPoolsRulesAreMeasuredBesideTheSizes() throws {
        var plan = AdaptiveSweepTests.plan()
        plan.sizes = .explicit([1, 2])
        plan.search = .grid
        plan.repetitions = 1
        plan.target = .database(Self.setup(limit: 20))
        #expect(plan.ruleSizes == [9, 20])
        let trials = ScriptedTrials { Double(min($0, 8)) * 500 }
        let result = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: AdaptiveSweepTests.SearchObserver())
        #expect(Set(result.records.map(\.poolSize)) == [1, 2, 9, 20])
        plan.target = .inProcess
        #expect(plan.ruleSizes.isEmpty)
    }

    /// machine.json keeps the target whole, and a resumed run's plan with another connection
    /// limit is another plan, said as the server's.
    @Test func theTargetIsRecordedAndCompared() throws {
        let target = SweepTarget.database(Self.setup(limit: 97))
        let data = try JSONEncoder().encode(target)
        #expect(try JSONDecoder().decode(SweepTarget.self, from: data) == target)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"kind\":\"database\""), "\(text)")
        var plan = AdaptiveSweepTests.plan()
        plan.target = target
        var other = plan
        other.target = .database(Self.setup(limit: 50))
        #expect(plan.difference(from: plan) == nil)
        #expect(
            other.difference(from: plan)
                == "its server was PostgreSQL at postgresql://REDACTED@127.0.0.1:5432/bench (on this machine, at most 97 connections), statement timeout 60 s, this sweep's is PostgreSQL at postgresql://REDACTED@127.0.0.1:5432/bench (on this machine, at most 50 connections), statement timeout 60 s"
        )
    }
}
