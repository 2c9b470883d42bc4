import Foundation
import PoolSizeModel

/// The intended arrival times of one open-loop trial, drawn from a seed: the in-process open
/// loop (`OpenLoopRunner`) and the server's driver (`HTTPLoadDriver.runOpenLoop`) take their
/// arrivals from it, so the same trial seed gives both the same schedule.
///
/// Each time is the start plus the sum of the gaps so far, kept as an offset: which arrivals
/// fall in a phase then depends on the seed and the phases alone, not on the clock's reading
/// at the start.
package struct ArrivalSchedule: Sendable {
    /// How arrivals are spaced.
    package let process: ArrivalProcess
    /// Arrivals per second.
    package let ratePerSecond: Double
    /// The instant the gaps count from (CLOCK_MONOTONIC ns).
    package let start: UInt64
    private var rng: SeededGenerator
    private var offset = 0.0

    /// A schedule of `trial`'s rate and spacing from `start`, its gaps drawn from `seed` (the
    /// arrival stream's own: `seed(forTrial:)`).
    package init(_ trial: OpenLoopTrial, seed: UInt64, start: UInt64) {
        process = trial.process
        ratePerSecond = trial.ratePerSecond
        self.start = start
        rng = SeededGenerator(seed: seed)
    }

    /// The arrival stream's seed for a trial seeded `seed`: a stream of its own, apart from the
    /// tasks' jitter.
    package static func seed(forTrial seed: UInt64) -> UInt64 { seed ^ 0xA77_1E55 }

    /// The next arrival's intended time.
    package mutating func next() -> UInt64 {
        offset += Self.gap(process, rate: ratePerSecond, rng: &rng)
        return start &+ UInt64(offset)
    }

    /// The gap before the next arrival, ns: exponential with mean 1/rate (inverse transform of a
    /// seeded uniform draw) for Poisson arrivals, exactly 1/rate for uniform ones.
    static func gap(_ process: ArrivalProcess, rate: Double, rng: inout SeededGenerator) -> Double {
        switch process {
        // A tool's arrivals are its own (`load`); a schedule of them is never drawn.
        case .uniform, .tool: return 1e9 / rate
        case .poisson: return -log(1 - rng.nextUnit()) / rate * 1e9
        }
    }
}
