import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// A chain's answer from hand-made cells: the cheapest cell within the tolerance of the best,
/// the steps around it, and what binds there from what the trials saw.
@Suite struct ChainRecommenderTests {
    let space = KnobSpace(checked: [
        Knob(name: "workers", values: .list([1, 2, 4])), Knob(name: "threads", values: .list([2, 4, 8])),
    ])

    /// Cells with these throughputs (workers slowest), each measured by one trial that used
    /// `utilization` of the cores in `processes` processes under `lock`.
    func cells(
        _ throughput: [Double?], utilization: Double = 0.3, lock: String? = nil, machineBusy: Double? = nil
    ) -> [ChainCellFigures] {
        zip(space.cells, throughput).map { cell, value in
            var figures = ChainCellFigures(
                cell: cell, row: "workers-\(cell["workers"])", connections: 2 * cell["workers"] * cell["threads"],
                status: .notRun)
            if let value {
                figures.status = .measured
                figures.throughputPerSecond = value
                figures.trials = 1
                figures.utilization = utilization
                figures.machineBusy = machineBusy
                figures.processes = cell["workers"]
                figures.interpreterLock = lock
            }
            return figures
        }
    }

    func answer(_ cells: [ChainCellFigures], cores: Int = 8) throws -> ChainAnswer {
        try #require(ChainRecommender.answer(cells, space: space, tolerance: 0.05, cores: cores))
    }

    /// More workers pay up to the largest: the best lies past the sizes swept.
    @Test func theCheapestCellWithinTheToleranceOfTheBest() throws {
        let answer = try answer(cells([100, 180, 185, 200, 360, 365, 390, 700, 710]))
        #expect(answer.best.cell.description == "workers=4 threads=8")
        // 700 ≥ 0.95 × 710 = 674.5 and 390 is not: workers=4 threads=4 (16 threads) over threads=8 (32).
        #expect(answer.recommended.cell.description == "workers=4 threads=4")
        #expect(abs(answer.shareOfBest - 700.0 / 710.0) < 1e-12)
        // Into the answer: workers 2 → 4 at threads=4 (360 → 700), threads 2 → 4 at workers=4 (390 → 700).
        #expect(answer.steps.map(\.written) == ["workers 2 → 4 +94%", "threads 2 → 4 +79%"])
        #expect(answer.beyond.map(\.written) == ["threads 4 → 8 +1%"])
        #expect(answer.binding == .stillRising(knob: "workers", size: 4))
        #expect(
            answer.bindingSentence
                == "workers still binds at its largest size 4: throughput was still rising (workers 2 → 4 +94%); sweep larger workers"
        )
    }

    /// A plateau inside the sizes with the cores busy: the cores bind.
    @Test func busyCoresBind() throws {
        let answer = try answer(cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.93), cores: 2)
        #expect(answer.recommended.cell.description == "workers=2 threads=4")
        #expect(answer.beyond.map(\.written) == ["workers 2 → 4 +0%", "threads 4 → 8 +1%"])
        #expect(
            answer.bindingSentence
                == "the cores: the server's processes used 93% of 2 cores at the answer, so more workers or threads only share them (past the answer: workers 2 → 4 +0%, threads 4 → 8 +1%)"
        )
    }

    /// The same plateau with the server at 60% of the cores and a local database and the driver
    /// taking the machine to 94%: the machine's cores bind, and the sentence says whose they were.
    @Test func aMachineBusyWithTheDatabaseBinds() throws {
        let busy = try answer(
            cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.6, machineBusy: 0.94), cores: 2)
        #expect(busy.binding == .machine(busy: 0.94, server: 0.6, cores: 2))
        #expect(
            busy.bindingSentence
                == "the cores: the machine's 2 cores were 94% busy at the answer, the server's processes 60% and the rest other programs on it (a local database) and the load driver, so more workers or threads only share them (past the answer: workers 2 → 4 +0%, threads 4 → 8 +1%)"
        )
        // Below 85% busy the limit stays past the chain.
        let idle = try answer(
            cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.6, machineBusy: 0.8), cores: 2)
        #expect(idle.binding == .outside(utilization: 0.6))
    }

    /// The same plateau with the database watched: where its backends at work waited on Lock
    /// in most samples (at the answer or a step past it), the row locks bind, before the
    /// cores; a query's own sleep (Timeout) or idle connections (Client) are no contention.
    @Test func theDatabasesRowLocksBind() throws {
        func watched(_ samples: (KnobCell) -> [WaitClass: Int]) -> [ChainCellFigures] {
            cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.93).map { figures in
                var figures = figures
                figures.database = DatabaseFigures(waitSamples: samples(figures.cell), snapshots: 50)
                return figures
            }
        }
        // At the answer (workers=2 threads=4) 40 of 100 working samples on Lock; past it, at
        // threads=8, 120 of 160: 75%.
        let locked = try answer(
            watched { cell in
                let lock = cell["threads"] == 8 ? 120 : 40
                return [.lock: lock, .timeout: 40, .cpu: 20 - (cell["threads"] == 8 ? 20 : 0), .client: 300]
            }, cores: 2)
        #expect(locked.recommended.cell.description == "workers=2 threads=4")
        let past = try #require(space.cells.first { $0["workers"] == 2 && $0["threads"] == 8 })
        #expect(locked.binding == .database(wait: .lock, share: 0.75, cell: past))
        #expect(
            locked.bindingSentence
                == "the row locks in the database: more connections wait on Lock (at workers=2 threads=8 its backends at work waited on Lock in 75% of their samples), so a larger pool only queues there (past the answer: workers 2 → 4 +0%, threads 4 → 8 +1%)"
        )
        // The same samples on Timeout (a query's sleep): no contention, the cores bind.
        let sleeping = try answer(watched { _ in [.timeout: 160, .client: 300] }, cores: 2)
        #expect(sleeping.binding == .cores(utilization: 0.93, cores: 2))
        // Fewer working samples than DatabaseBend.minimumSamples say nothing.
        let few = try answer(watched { _ in [.lock: 15, .client: 300] }, cores: 2)
        #expect(few.binding == .cores(utilization: 0.93, cores: 2))
        // At the answer itself 60% on Lock: the lock binds even where a step still paid (a
        // queue at the lock leaves no real rise past it).
        var rising = cells([100, 180, 185, 200, 360, 365, 390, 700, 710])
        for index in rising.indices {
            rising[index].database = DatabaseFigures(waitSamples: [.lock: 60, .timeout: 40], snapshots: 50)
        }
        let queued = try answer(rising)
        #expect(queued.recommended.cell.description == "workers=4 threads=4")
        #expect(queued.binding == .database(wait: .lock, share: 0.6, cell: queued.recommended.cell))
        #expect(
            queued.bindingSentence.hasPrefix(
                "the row locks in the database: more connections wait on Lock (at the answer its backends at work waited on Lock in 60% of their samples)"
            ))
    }

    /// The same plateau with cores to spare and each worker at a core under CPython's lock.
    @Test func aWorkerAtACoreUnderItsLockBinds() throws {
        // 2 workers at 0.25 of 8 cores: 1.0 core each.
        let locked = try answer(
            cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.25, lock: "cpython 3.11"))
        #expect(locked.binding == .interpreterLock(runtime: "cpython 3.11", processes: 2, coresPerProcess: 1))
        #expect(
            locked.bindingSentence.hasPrefix(
                "the interpreter lock per worker: each of the 2 cpython 3.11 worker processes ran at 100% of a core, and more threads per worker add nothing"
            ))
        // Without a lock and with cores to spare, the limit is past the chain.
        let outside = try answer(cells([100, 190, 192, 195, 380, 384, 196, 381, 385], utilization: 0.25))
        #expect(outside.binding == .outside(utilization: 0.25))
        #expect(
            outside.bindingSentence
                == "no knob of the chain: past the answer no step pays and the server's processes used 25% of the cores (a database or other program on this machine not counted), so the limit lies past the chain's knobs (the database's own time, a lock, the network, another program) (past the answer: workers 2 → 4 +0%, threads 4 → 8 +1%)"
        )
    }

    /// The next step excluded by the database's limit binds before any other evidence.
    @Test func theConnectionLimitBindsWhenTheNextStepIsExcluded() throws {
        var figures = cells([100, 190, 192, 195, 380, nil, 196, nil, nil], utilization: 0.95)
        figures[5].status = .excluded(
            "workers=2 threads=8: workers × threads needs at least 16 connections; the server allows 12 for this role (max_connections 15, 3 reserved for superusers)"
        )
        let answer = try answer(figures)
        #expect(answer.recommended.cell.description == "workers=2 threads=4")
        #expect(
            answer.bindingSentence
                == "the database's connection limit: the next step needs more connections than it allows (workers=2 threads=8: workers × threads needs at least 16 connections; the server allows 12 for this role (max_connections 15, 3 reserved for superusers))"
        )
    }

    /// Cells not measured are never recommended; none measured, no answer.
    @Test func unmeasuredCellsAreLeftOut() throws {
        #expect(
            ChainRecommender.answer(cells(Array(repeating: nil, count: 9)), space: space, tolerance: 0.05, cores: 2)
                == nil)
        let answer = try answer(cells([100, nil, nil, nil, nil, nil, nil, nil, nil]))
        #expect(answer.recommended.cell.description == "workers=1 threads=2")
        #expect(answer.binding == .nothingInTheSizes)
        #expect(
            answer.bindingSentence
                == "no knob binds within these sizes: the smallest cell already serves within 5% of the best")
    }
}
