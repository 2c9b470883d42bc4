import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// The chain's search on surfaces whose best cell is known: each step's cells are "measured" from
/// the surface, and the search must end within 5% of the grid's best in at most 14 trials (15 with
/// the low-load phase) on a space of 36 cells.
@Suite struct ChainSearchTests {
    static let workers = [1, 2, 3, 4]
    static let threads = [2, 4, 6, 8, 12, 16, 20, 24, 32]

    static func space() throws -> KnobSpace {
        try #require(try KnobSpace.parse(["workers=1,2,3,4", "threads=2,4,6,8,12,16,20,24,32"]))
    }

    /// Runs the search on `surface` to its end: the trials it took and the answer's share of the
    /// grid's best throughput.
    static func search(
        _ surface: (Int, Int) -> Double, cores: Int = 2
    ) throws -> (trials: Int, share: Double, answer: String) {
        let space = try space()
        let rows = try space.rows(command: "srv -w {workers} -t {threads} -p {port}") { _ in nil }
        let search = ChainSearch(tolerance: 0.05, cores: cores)
        var measured: [KnobCell: Double] = [:]
        while let step = search.next(rows: rows, measured: measured) {
            for size in step.sizes {
                let cell = try #require(rows[step.row].cell(size: size))
                #expect(measured[cell] == nil, "\(cell) measured twice")
                measured[cell] = surface(cell["workers"], cell["threads"])
            }
        }
        let figures = space.cells.map { cell in
            var figures = ChainCellFigures(cell: cell, row: "", connections: nil, status: .notRun)
            if let value = measured[cell] {
                figures.status = .measured
                figures.throughputPerSecond = value
            }
            return figures
        }
        let answer = try #require(ChainRecommender.answer(figures, space: space, tolerance: 0.05, cores: cores))
        let best = space.cells.map { surface($0["workers"], $0["threads"]) }.max()!
        let value = surface(answer.recommended.cell["workers"], answer.recommended.cell["threads"])
        return (measured.count, value / best, answer.recommended.cell.description)
    }

    /// A CPython service: a worker runs at most one core (1 ms of Python a request), a thread
    /// waits 5 ms on its query, the machine has 2 cores.
    @Test func aServerUnderAnInterpreterLock() throws {
        let result = try Self.search { w, t in min(Double(w) * min(Double(t) * 1_000 / 6, 1_000), 2_000) }
        #expect(result.trials <= 14, "\(result)")
        #expect(result.share >= 0.95, "\(result)")
    }

    /// Threads scale in one process; each more process costs 3%.
    @Test func aServerWhoseThreadsScale() throws {
        let result = try Self.search { w, t in
            min(Double(w * t) * 100, 2_000) * (1 - 0.03 * Double(w - 1))
        }
        #expect(result.trials <= 14, "\(result)")
        #expect(result.share >= 0.95, "\(result)")
    }

    /// The database binds: past 24 connections in all, each more costs 2% of the peak.
    @Test func aDatabaseThatBindsPastTwentyFourConnections() throws {
        let result = try Self.search { w, t in
            let connections = Double(w * t)
            return min(connections * 60, 1_440) * max(0.2, 1 - 0.02 * max(0, connections - 24))
        }
        #expect(result.trials <= 14, "\(result)")
        #expect(result.share >= 0.95, "\(result)")
    }

    /// On a machine of 8 cores the start is the row of 4 workers.
    @Test func theStartIsTheRowNearestTheCores() throws {
        let space = try Self.space()
        let rows = try space.rows(command: "srv -w {workers} -t {threads} -p {port}") { _ in nil }
        let first = try #require(ChainSearch(tolerance: 0.05, cores: 8).next(rows: rows, measured: [:]))
        #expect(first.row == 3 && first.sizes == [2, 12, 32])
        let two = try #require(ChainSearch(tolerance: 0.05, cores: 2).next(rows: rows, measured: [:]))
        #expect(two.row == 1)
    }
}
