import Foundation
import PoolSizeModel

/// A chain's answer: the smallest cell that serves within the tolerance of the best one, each
/// knob's steps into it and past it, and the layer that binds there, from what was measured.
package struct ChainAnswer: Equatable, Sendable {
    /// One knob's step between two cells, the other knobs held; recommendation.json writes it
    /// as it is.
    package struct Step: Equatable, Sendable, Codable {
        package var knob: String
        package var from: Int
        package var to: Int
        /// Throughput at `to` over throughput at `from`, less one.
        package var gain: Double

        /// `workers 2 → 4 +94%`.
        package var written: String { "\(knob) \(from) → \(to) \(ChainAnswer.percent(gain))" }
    }

    /// What holds the chain at the recommended cell.
    package enum Binding: Equatable, Sendable {
        /// The knob is at its largest size and its last step still paid: sweep it further.
        case stillRising(knob: String, size: Int)
        /// The next step of a knob needs more connections than the database allows.
        case connectionLimit(String)
        /// The server's processes used most of the cores.
        case cores(utilization: Double, cores: Int)
        /// The machine's cores were nearly all busy, the server's processes short of most of
        /// them: the rest went to other programs on it (a local database) and the load driver.
        case machine(busy: Double, server: Double, cores: Int)
        /// Each worker process ran near a core under its runtime's interpreter lock, fewer
        /// workers than cores.
        case interpreterLock(runtime: String, processes: Int, coresPerProcess: Double)
        /// The database's backends at work spent most of their samples waiting on one contended
        /// resource (row locks, the server's internal locks, storage) at `cell`: the answer, or
        /// a step past it.
        case database(wait: WaitClass, share: Double, cell: KnobCell)
        /// The smallest cell serves as well as any.
        case nothingInTheSizes
        /// No knob pays past the answer and the server's processes left cores unused (the
        /// share they used, when measured): the limit lies past the chain's knobs (the
        /// database's own time, a lock, the network, another program on the machine).
        case outside(utilization: Double?)
    }

    /// The recommended cell and its figures.
    package var recommended: ChainCellFigures
    /// The cell with the highest throughput.
    package var best: ChainCellFigures
    /// How far below the best a cell may be and still serve (the sweep's tolerance).
    package var tolerance: Double
    /// Each knob's step into the recommended cell that was measured, in the order of the knobs.
    package var steps: [Step]
    /// Each knob's step past the recommended cell that was measured.
    package var beyond: [Step]
    /// What binds at the recommended cell.
    package var binding: Binding

    /// The recommended cell's throughput as a share of the best's.
    package var shareOfBest: Double {
        guard let best = best.throughputPerSecond, best > 0 else { return 0 }
        return (recommended.throughputPerSecond ?? 0) / best
    }

    /// The knob the binding layer names, when it is one of the chain's.
    package var bindingKnob: String? {
        if case .stillRising(let knob, _) = binding { return knob }
        return nil
    }

    /// The binding layer in a sentence, with the steps measured around the answer.
    package var bindingSentence: String {
        let past = beyond.isEmpty ? "" : " (past the answer: \(beyond.map(\.written).joined(separator: ", ")))"
        switch binding {
        case .stillRising(let knob, let size):
            let into = steps.first { $0.knob == knob }.map { " (\($0.written))" } ?? ""
            return
                "\(knob) still binds at its largest size \(size): throughput was still rising\(into); sweep larger \(knob)"
        case .connectionLimit(let reason):
            return "the database's connection limit: the next step needs more connections than it allows (\(reason))"
        case .cores(let utilization, let cores):
            return
                "the cores: the server's processes used \(Self.percent(utilization, signed: false)) of \(cores) core\(cores == 1 ? "" : "s") at the answer, so more workers or threads only share them\(past)"
        case .machine(let busy, let server, let cores):
            return
                "the cores: the machine's \(cores) core\(cores == 1 ? " was" : "s were") \(Self.percent(busy, signed: false)) busy at the answer, the server's processes \(Self.percent(server, signed: false)) and the rest other programs on it (a local database) and the load driver, so more workers or threads only share them\(past)"
        case .interpreterLock(let runtime, let processes, let coresPerProcess):
            return
                "the interpreter lock per worker: each of the \(processes) \(runtime) worker process\(processes == 1 ? "" : "es") ran at \(Self.percent(coresPerProcess, signed: false)) of a core, and more threads per worker add nothing\(past)"
        case .database(let wait, let share, let cell):
            let what =
                switch wait {
                case .lock: "the row locks in the database: more connections wait on Lock"
                case .lwlock: "the database's internal locks: more connections wait on LWLock"
                case .io: "the database's storage: more connections wait on IO"
                default: "the database: more connections wait on \(wait.label)"
                }
            let at = cell == recommended.cell ? "at the answer" : "at \(cell)"
            return
                "\(what) (\(at) its backends at work waited on \(wait.label) in \(Self.percent(share, signed: false)) of their samples), so a larger pool only queues there\(past)"
        case .nothingInTheSizes:
            return
                "no knob binds within these sizes: the smallest cell already serves within \(Self.percent(tolerance, signed: false)) of the best"
        case .outside(let utilization):
            let used =
                utilization.map {
                    "the server's processes used \(Self.percent($0, signed: false)) of the cores (a database or other program on this machine not counted)"
                } ?? "the server's use of the cores was not measured"
            return
                "no knob of the chain: past the answer no step pays and \(used), so the limit lies past the chain's knobs (the database's own time, a lock, the network, another program)\(past)"
        }
    }

    static func percent(_ value: Double, signed: Bool = true) -> String {
        let rounded = (value * 100).rounded()
        let sign = signed && rounded >= 0 ? "+" : ""
        return "\(sign)\(Int(rounded))%"
    }
}
