import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// Each layer's rule of thumb applied to a chain's answer, by hand on 2 cores: the worker
/// processes' knob found from the command, a connection pool's rules only for a pool with a
/// knob of its own, a value outside the knob's sizes named as such.
@Suite struct ChainRulesTests {
    func cell(_ space: KnobSpace, _ values: [String: Int]) throws -> KnobCell {
        try #require(space.cells.first { cell in values.allSatisfy { cell[$0.key] == $0.value } })
    }

    @Test func workersAndAPoolOfItsOwn() throws {
        let space = KnobSpace(checked: [
            Knob(name: "workers", values: .list([1, 2, 3, 4, 5])), Knob(name: "threads", values: .list([2, 4, 8])),
            Knob(name: "pool", values: .list([1, 4, 8])),
        ])
        let answer = try cell(space, ["workers": 2, "threads": 4, "pool": 4])
        let rules = ChainRules.rules(
            space: space, command: "gunicorn -w {workers} --threads {threads} -e POOL_SIZE={pool} app:app",
            at: answer, cores: 2, demand: ConnectionDemand(factors: ["workers", "pool"], overflow: 0), allowed: 19)
        #expect(
            rules == [
                ChainRule(name: "cores", knob: "workers", value: 2, cell: answer),
                ChainRule(
                    name: "2 × cores + 1", knob: "workers", value: 5,
                    cell: try cell(space, ["workers": 5, "threads": 4, "pool": 4])),
                ChainRule(
                    name: "HikariCP (cores × 2) + 1", knob: "pool", value: 5, cell: nil,
                    note: "not among the sizes of pool (1,4,8)"),
                ChainRule(name: "a connection per thread", knob: "pool", value: 4, cell: answer),
                // (19 allowed) / 2 workers = 9 connections a pool; the largest size within is 8.
                ChainRule(
                    name: "max_connections", knob: "pool", value: 9,
                    cell: try cell(space, ["workers": 2, "threads": 4, "pool": 8]),
                    note: "the largest size of pool within 9"),
            ])
    }

    /// A pool tied to the threads has no rule of its own; `--workers=` marks the workers knob
    /// whatever its name; a chain without one has no workers' rules.
    @Test func tiedPoolsAndOtherSpellings() throws {
        let space = KnobSpace(checked: [
            Knob(name: "procs", values: .list([1, 2])), Knob(name: "threads", values: .list([2, 4])),
            Knob(name: "pool", values: .tied("threads")),
        ])
        let answer = try cell(space, ["procs": 1, "threads": 4])
        let rules = ChainRules.rules(
            space: space, command: "server --workers={procs} --threads {threads} --pool {pool}", at: answer,
            cores: 2, demand: ConnectionDemand(factors: ["procs", "pool"], overflow: 0), allowed: 10)
        #expect(rules.map(\.name) == ["cores", "2 × cores + 1"])
        #expect(rules.map(\.knob) == ["procs", "procs"])
        #expect(rules.last?.note == "not among the sizes of procs (1,2)")
        let threadsOnly = KnobSpace(checked: [
            Knob(name: "pool", values: .list([1, 4])), Knob(name: "threads", values: .list([2, 8])),
        ])
        let jvm = ChainRules.rules(
            space: threadsOnly, command: "java Server --threads {threads} --pool {pool}",
            at: try cell(threadsOnly, ["pool": 4, "threads": 8]), cores: 2,
            demand: ConnectionDemand(factors: ["pool"], overflow: 0), allowed: 11)
        #expect(jvm.map(\.name) == ["HikariCP (cores × 2) + 1", "a connection per thread", "max_connections"])
        #expect(jvm.map(\.value) == [5, 8, 11])
        #expect(jvm.map { $0.cell?.description } == [nil, nil, "pool=4 threads=8"])
    }

    /// `auto` by the knob's layer, by hand: on 2 cores the workers 1…5 (one a core, 2n + 1),
    /// threads 1…16 doubling (8n), a pool of its own the same with HikariCP's 5; on 8 cores
    /// the workers every count to 9, then 16 and 17.
    @Test func autoSizesFollowTheLayer() throws {
        let space = try #require(try KnobSpace.parse(["workers=auto", "threads=auto", "pool=auto"]))
        let command = "gunicorn -w {workers} --threads {threads} -e POOL_SIZE={pool} app:app"
        let demand = ConnectionDemand(factors: ["workers", "pool"], overflow: 0)
        func sizes(_ name: String, _ cores: Int) -> [Int] {
            ChainRules.autoSizes(name, space: space, command: command, demand: demand, cores: cores)
        }
        #expect(sizes("workers", 2) == [1, 2, 3, 4, 5])
        #expect(sizes("threads", 2) == [1, 2, 4, 8, 16])
        #expect(sizes("pool", 2) == [1, 2, 4, 5, 8, 16])
        #expect(sizes("workers", 8) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17])
        #expect(sizes("threads", 1) == [1, 2, 4, 8])
    }
}
