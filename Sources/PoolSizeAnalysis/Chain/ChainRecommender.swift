import PoolSizeModel

/// Chooses a chain's cell from its measured cells: the cheapest (fewest threads, the product
/// of the thread knobs, `KnobSpace.threadKnobs`; then fewest connections) whose throughput is within the tolerance of the
/// best cell's, and names what binds there.
package enum ChainRecommender {
    /// A server at this share of the cores or more is bound by them.
    package static let busyCores = 0.85
    /// A worker under an interpreter lock at this share of a core or more is bound by its lock.
    package static let busyLock = 0.8
    /// The database binds when its backends at work spent this share of their samples or more
    /// waiting on one contended resource (`contended`).
    package static let databaseWait = 0.5
    /// The waits for a resource the backends share: more connections queue for it. A timed
    /// sleep or a wait for the client is the request's own time, not contention.
    static let contended: [WaitClass] = [.lock, .lwlock, .io]

    /// The answer, or nil when no cell was measured.
    /// - Parameters:
    ///   - cores: the cores the server had (the sweep's).
    ///   - demand: the connections a cell opens, which tells a connection pool's knob from threads.
    package static func answer(
        _ cells: [ChainCellFigures], space: KnobSpace, tolerance: Double, cores: Int, demand: ConnectionDemand? = nil
    ) -> ChainAnswer? {
        let measured = cells.filter { $0.throughputPerSecond != nil }
        guard let best = measured.max(by: { $0.throughputPerSecond! < $1.throughputPerSecond! }),
            let peak = best.throughputPerSecond
        else { return nil }
        let serving = measured.filter { $0.throughputPerSecond! >= (1 - tolerance) * peak }
        let order = Dictionary(uniqueKeysWithValues: cells.enumerated().map { ($1.cell, $0) })
        let threadKnobs = space.threadKnobs(demand: demand)
        func cost(_ figures: ChainCellFigures) -> (Int, Int, Int) {
            let threads = threadKnobs.reduce(1) { $0 * figures.cell[$1] }
            return (threads, figures.connections ?? 0, order[figures.cell] ?? 0)
        }
        let recommended = serving.min { cost($0) < cost($1) } ?? best
        let byCell = Dictionary(uniqueKeysWithValues: cells.map { ($0.cell, $0) })
        var steps: [ChainAnswer.Step] = []
        var beyond: [ChainAnswer.Step] = []
        var stillRising: (String, Int)?
        var blocked: String?
        var past: [ChainCellFigures] = []
        for knob in space.free {
            guard case .list(let sizes) = knob.values, let index = sizes.firstIndex(of: recommended.cell[knob.name])
            else { continue }
            // The nearest lower size measured beside the answer, else beside the best cell (a
            // search measures a row's sizes, not every cell's neighbours).
            let into = sizes[..<index].reversed().lazy.compactMap { lower in
                step(knob.name, from: lower, to: sizes[index], space, recommended, byCell)
                    ?? step(knob.name, from: lower, to: sizes[index], space, best, byCell)
            }.first
            if let step = into {
                steps.append(step)
                if index == sizes.count - 1 && step.gain > tolerance && stillRising == nil {
                    stillRising = (knob.name, sizes[index])
                }
            }
            if index + 1 < sizes.count {
                if let step = step(knob.name, from: sizes[index], to: sizes[index + 1], space, recommended, byCell) {
                    beyond.append(step)
                    if let next = neighbour(knob.name, sizes[index + 1], space, recommended.cell),
                        let figures = byCell[next]
                    {
                        past.append(figures)
                    }
                } else if let next = neighbour(knob.name, sizes[index + 1], space, recommended.cell),
                    case .excluded(let reason) = byCell[next]?.status, blocked == nil
                {
                    blocked = reason
                }
            }
        }
        let binding: ChainAnswer.Binding
        // Backends that wait on a lock at least as often as they work mean a queue at the lock
        // at the answer itself: no knob's rise is real past it, whatever a noisy step said.
        if let wait = databaseWait(at: [recommended]) {
            binding = wait
        } else if let (knob, size) = stillRising {
            binding = .stillRising(knob: knob, size: size)
        } else if let blocked {
            binding = .connectionLimit(blocked)
        } else if let wait = databaseWait(at: past) {
            binding = wait
        } else if let utilization = recommended.utilization, utilization >= busyCores {
            binding = .cores(utilization: utilization, cores: cores)
        } else if let utilization = recommended.utilization, let busy = recommended.machineBusy, busy >= busyCores {
            binding = .machine(busy: busy, server: utilization, cores: cores)
        } else if let runtime = recommended.interpreterLock, let processes = recommended.processes, processes > 0,
            let utilization = recommended.utilization,
            utilization * Double(cores) / Double(processes) >= busyLock
        {
            binding = .interpreterLock(
                runtime: runtime, processes: processes, coresPerProcess: utilization * Double(cores) / Double(processes)
            )
        } else if space.free.allSatisfy({ knob in
            guard case .list(let sizes) = knob.values else { return true }
            return sizes.first == recommended.cell[knob.name]
        }) {
            binding = .nothingInTheSizes
        } else {
            binding = .outside(utilization: recommended.utilization)
        }
        return ChainAnswer(
            recommended: recommended, best: best, tolerance: tolerance, steps: steps, beyond: beyond, binding: binding)
    }

    /// The database's contended wait at the cell of `cells` where it is largest, when its
    /// backends at work spent `databaseWait` of their samples or more in it; nil otherwise.
    static func databaseWait(at cells: [ChainCellFigures]) -> ChainAnswer.Binding? {
        var found: (wait: WaitClass, share: Double, cell: KnobCell)?
        for figures in cells {
            guard let database = figures.database,
                database.sampleCount - (database.waitSamples[.client] ?? 0) >= DatabaseBend.minimumSamples
            else { continue }
            for wait in contended where database.workingShare(wait) > (found?.share ?? 0) {
                found = (wait, database.workingShare(wait), figures.cell)
            }
        }
        guard let found, found.share >= databaseWait else { return nil }
        return .database(wait: found.wait, share: found.share, cell: found.cell)
    }

    /// The cell of `cell` with `knob` (and the knobs tied to it) at `size`.
    static func neighbour(_ knob: String, _ size: Int, _ space: KnobSpace, _ cell: KnobCell) -> KnobCell? {
        space.cells.first { candidate in
            space.names.allSatisfy { name in
                space.source(of: name)?.name == knob ? candidate[name] == size : candidate[name] == cell[name]
            }
        }
    }

    /// The measured step of `knob` from `from` to `to` with the other knobs at `cell`'s values.
    static func step(
        _ knob: String, from: Int, to: Int, _ space: KnobSpace, _ cell: ChainCellFigures,
        _ byCell: [KnobCell: ChainCellFigures]
    ) -> ChainAnswer.Step? {
        guard let low = neighbour(knob, from, space, cell.cell), let high = neighbour(knob, to, space, cell.cell),
            let a = byCell[low]?.throughputPerSecond, let b = byCell[high]?.throughputPerSecond, a > 0
        else { return nil }
        return ChainAnswer.Step(knob: knob, from: from, to: to, gain: b / a - 1)
    }
}
