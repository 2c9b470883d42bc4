import PoolSizeModel
import Synchronization

/// Uncontended lock + unlock of each primitive the sweep knows, compare-and-swap and atomic add.
///
/// A primitive is entered through the same `GuardedSection` the sweep uses, so the figure is
/// what a task pays. Each section also runs the integrity monitor (a few atomics) around the
/// body; that cost is measured on the `unprotected` section, which is the monitor alone, right
/// before and after, and subtracted.
struct LockCostBenchmark {
    let baseline: any GuardedSection

    init() {
        baseline = PrimitiveFactory.make(.unprotected)!
    }

    /// Nanoseconds per enter + leave of `section` net of the monitor, from `count` of each,
    /// and the monitor's own nanoseconds per section.
    func round(_ section: any GuardedSection, count: Int) -> (net: Double, monitor: Double) {
        let before = Self.time(baseline, count)
        let gross = Self.time(section, count)
        let after = Self.time(baseline, count)
        let monitor = Double(before + after) / 2 / Double(count)
        return (Swift.max(0, Double(gross) / Double(count) - monitor), monitor)
    }

    @inline(never)
    static func time(_ section: any GuardedSection, _ count: Int) -> UInt64 {
        let t0 = RoundPlanner.now()
        for task in 0..<count { section.enter(task: UInt64(task)) {} }
        return RoundPlanner.now() &- t0
    }

    /// Nanoseconds for `count` successful compare-and-swaps on one uncontended atomic.
    @inline(never)
    static func compareAndSwap(_ count: Int) -> UInt64 {
        let value = Atomic<Int>(0)
        let t0 = RoundPlanner.now()
        for expected in 0..<count {
            _ = value.compareExchange(expected: expected, desired: expected &+ 1, ordering: .sequentiallyConsistent)
        }
        let elapsed = RoundPlanner.now() &- t0
        precondition(value.load(ordering: .relaxed) == count, "every compare-and-swap must succeed")
        return elapsed
    }

    /// Nanoseconds for `count` atomic adds on one uncontended atomic.
    @inline(never)
    static func atomicAdd(_ count: Int) -> UInt64 {
        let value = Atomic<Int>(0)
        let t0 = RoundPlanner.now()
        for _ in 0..<count { value.wrappingAdd(1, ordering: .sequentiallyConsistent) }
        let elapsed = RoundPlanner.now() &- t0
        precondition(value.load(ordering: .relaxed) == count, "every add must land")
        return elapsed
    }
}
