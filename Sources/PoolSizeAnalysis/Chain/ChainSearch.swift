import PoolSizeModel

/// A chain's search: which row to run next and at which sizes of its swept knob, decided from
/// the cells measured so far, so that the answer comes in a handful of trials instead of the
/// whole grid. Stateless, as `SizeSearch` is: a resumed chain replays the same decisions.
///
/// 1. **The starting row**: the row whose held knobs' threads are nearest the cores (a worker
///    process a core, as a server under an interpreter lock wants; any row is as good a start
///    for one without); the middle row when the held knob is a connection pool. Its smallest,
///    middle and largest sizes, then the middle of the gap below its knee until the knee is
///    resolved to one size.
/// 2. **Along the held knob**: the next row each way, at the size that keeps the threads in all
///    (the product of the thread knobs) at the last row's knee and the size beside it toward
///    that knee; when the rows hold a connection pool, at the last row's knee and the size
///    beyond it the way the pool goes. A way is followed while its rows gain (up) or still
///    serve (down).
/// 3. **The best row's knee**: its sizes beside the best probed until the knee is bracketed.
/// 4. **A climb from the best cell**, with the trials left: the best cell's neighbours not
///    measured yet (one step of either knob, up before down), and again from a neighbour that
///    proves better. One trial a cell on a noisy service can misplace a knee; the climb checks
///    the cells around the answer before it is given.
///
/// Only a space of two knobs with sizes of their own is searched; more are swept whole.
package struct ChainSearch: Sendable, Equatable {
    /// What to measure next: sizes of one row.
    package struct Step: Equatable, Sendable {
        /// The row's index in the chain's rows.
        package var row: Int
        /// Sizes of its swept knob not measured yet.
        package var sizes: [Int]
    }

    package let tolerance: Double
    package let cores: Int
    /// The most trials the search may take, the low-load phase not counted.
    package let budget: Int
    /// The knobs whose values multiply to the threads in all (`KnobSpace.threadKnobs`); nil:
    /// every knob.
    package let threadKnobs: [String]?

    package init(tolerance: Double, cores: Int, budget: Int = 13, threadKnobs: [String]? = nil) {
        self.tolerance = tolerance
        self.cores = max(1, cores)
        self.budget = budget
        self.threadKnobs = threadKnobs
    }

    /// Whether `space` is one the search handles: two knobs with sizes of their own.
    package static func searches(_ space: KnobSpace) -> Bool { space.free.count == 2 }

    /// The next step, or nil when the answer is resolved (or the budget spent).
    /// - Parameter measured: each measured cell's mean throughput.
    package func next(rows: [ChainRow], measured: [KnobCell: Double]) -> Step? {
        let open = rows.indices.filter { !rows[$0].sizes.isEmpty }
        guard let start = startRow(rows, open) else { return nil }
        guard measured.count < budget else { return nil }
        func values(_ row: Int) -> [(size: Int, throughput: Double)] {
            rows[row].sizes.compactMap { size in
                rows[row].cell(size: size).flatMap { measured[$0] }.map { (size, $0) }
            }
        }
        func step(_ row: Int, _ sizes: [Int]) -> Step? {
            let new = sizes.filter { size in
                rows[row].sizes.contains(size) && rows[row].cell(size: size).map { measured[$0] == nil } == true
            }
            return new.isEmpty ? nil : Step(row: row, sizes: Array(Set(new)).sorted())
        }
        // 1. The starting row: its ends and middle, then bisect below its knee.
        let sizes = rows[start].sizes
        if let first = step(start, [sizes[0], sizes[sizes.count / 2], sizes[sizes.count - 1]]) { return first }
        if let bisect = bisection(rows[start].sizes, values(start)).flatMap({ step(start, [$0]) }) { return bisect }
        // 2. Along the held knob, each way from the start.
        let best = measured.values.max() ?? 0
        for direction in [1, -1] {
            var previous = start
            var index = open.firstIndex(of: start)! + direction
            while index >= 0 && index < open.count {
                let row = open[index]
                let here = values(row)
                guard let knee = Self.knee(values(previous), tolerance: tolerance) else { break }
                if here.isEmpty {
                    // Rows of threads over threads (workers × threads) keep the threads in all;
                    // with a connection pool on either side, more threads want more connections
                    // and the other way round, so the knee's size and the one beyond it the way
                    // the rows go are probed.
                    let threadsOnly = ([rows[row].swept] + rows[row].held.map(\.name)).allSatisfy(countsThreads)
                    let target =
                        threadsOnly
                        ? Double(knee) * Double(product(rows[previous])) / Double(max(1, product(rows[row])))
                        : Double(knee)
                    let nearest = rows[row].sizes.min { abs(Double($0) - target) < abs(Double($1) - target) }!
                    let toward = neighbour(
                        of: nearest, in: rows[row].sizes,
                        toward: threadsOnly ? Double(knee) : direction > 0 ? .infinity : -.infinity)
                    if let probe = step(row, [nearest] + (toward.map { [$0] } ?? [])) { return probe }
                    break
                }
                let gained = (here.map(\.throughput).max() ?? 0) > (1 + tolerance / 2) * peak(values(previous))
                let serves = (here.map(\.throughput).max() ?? 0) >= (1 - tolerance) * best
                guard direction > 0 ? gained : serves else { break }
                previous = row
                index += direction
            }
        }
        // 3. The best row's knee, bracketed.
        guard let bestRow = open.max(by: { peak(values($0)) < peak(values($1)) }) else { return nil }
        let bestValues = values(bestRow)
        if bestRow != start, let more = bracket(rows[bestRow].sizes, bestValues).flatMap({ step(bestRow, [$0]) }) {
            return more
        }
        // 4. A climb from the best cell.
        return climb(rows, open, measured, step)
    }

    /// The best measured cell's first neighbour not measured yet: its row's next size up, the
    /// next row's same size, its row's next size down, the previous row's same size.
    func climb(
        _ rows: [ChainRow], _ open: [Int], _ measured: [KnobCell: Double], _ step: (Int, [Int]) -> Step?
    ) -> Step? {
        guard let best = measured.max(by: { $0.value < $1.value })?.key,
            let position = open.firstIndex(where: { rows[$0].cells.contains(best) })
        else { return nil }
        let row = open[position]
        let size = best[rows[row].swept]
        guard let index = rows[row].sizes.firstIndex(of: size) else { return nil }
        let sizes = rows[row].sizes
        var candidates: [(row: Int, size: Int)] = []
        if index + 1 < sizes.count { candidates.append((row, sizes[index + 1])) }
        if position + 1 < open.count { candidates.append((open[position + 1], size)) }
        if index > 0 { candidates.append((row, sizes[index - 1])) }
        if position > 0 { candidates.append((open[position - 1], size)) }
        for candidate in candidates { if let next = step(candidate.row, [candidate.size]) { return next } }
        return nil
    }

    /// The row to start from: held threads nearest the cores, the smaller on a tie; the middle
    /// row when the rows hold no thread knob.
    func startRow(_ rows: [ChainRow], _ open: [Int]) -> Int? {
        if let first = open.first, !rows[first].held.contains(where: { countsThreads($0.name) }) {
            return open[open.count / 2]
        }
        return open.min { a, b in
            let da = abs(product(rows[a]) - cores), db = abs(product(rows[b]) - cores)
            return da != db ? da < db : product(rows[a]) < product(rows[b])
        }
    }

    /// The threads the row's held knobs multiply to.
    func product(_ row: ChainRow) -> Int { row.held.filter { countsThreads($0.name) }.map(\.value).reduce(1, *) }

    func countsThreads(_ knob: String) -> Bool { threadKnobs?.contains(knob) ?? true }

    func peak(_ values: [(size: Int, throughput: Double)]) -> Double { values.map(\.throughput).max() ?? 0 }

    /// The smallest size within the tolerance of the row's peak.
    static func knee(_ values: [(size: Int, throughput: Double)], tolerance: Double) -> Int? {
        guard let peak = values.map(\.throughput).max() else { return nil }
        return values.filter { $0.throughput >= (1 - tolerance) * peak }.map(\.size).min()
    }

    /// The middle unmeasured size between the knee and the measured size below it; nil when
    /// they are neighbours.
    func bisection(_ sizes: [Int], _ values: [(size: Int, throughput: Double)]) -> Int? {
        guard let knee = Self.knee(values, tolerance: tolerance), let kneeIndex = sizes.firstIndex(of: knee) else {
            return nil
        }
        let measured = Set(values.map(\.size))
        let lowerIndex = sizes[..<kneeIndex].lastIndex { measured.contains($0) } ?? -1
        guard kneeIndex - lowerIndex > 1 else { return nil }
        return sizes[(lowerIndex + 1 + kneeIndex) / 2]
    }

    /// A size beside the row's knee not measured yet: below it when the knee is the smallest
    /// measured (a smaller size may serve as well), above it when the knee is the largest and
    /// was still rising.
    func bracket(_ sizes: [Int], _ values: [(size: Int, throughput: Double)]) -> Int? {
        guard let knee = Self.knee(values, tolerance: tolerance), let index = sizes.firstIndex(of: knee) else {
            return nil
        }
        let measured = values.map(\.size).sorted()
        if knee == measured.first, index > 0 { return sizes[index - 1] }
        if knee == measured.last, index + 1 < sizes.count { return sizes[index + 1] }
        return nil
    }

    /// The size of `sizes` next to `size` in the direction of `target`.
    func neighbour(of size: Int, in sizes: [Int], toward target: Double) -> Int? {
        guard let index = sizes.firstIndex(of: size) else { return nil }
        if Double(size) < target { return index + 1 < sizes.count ? sizes[index + 1] : nil }
        if Double(size) > target { return index > 0 ? sizes[index - 1] : nil }
        return nil
    }
}
