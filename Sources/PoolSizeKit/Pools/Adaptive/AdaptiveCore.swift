import Dispatch
import PoolSizeModel
import Synchronization

/// What an `AdaptiveQueuePool`'s timer works on: its queues, the size in force and the
/// controller. A separate object so the timer holds this strongly and never the pool: a weak
/// reference to the pool would move its reference counts to a side table, and every retain of the
/// pool (a task that resubmits through it) would take the slow path.
package final class AdaptiveCore: Sendable {
    /// The pool's queues, all created up front.
    let slots: [AdaptiveSlot]
    /// The number of queues new work is spread over.
    let active: Atomic<Int>
    let clocks: any MeasurementClocks
    /// The controller and the counters at the last window's end.
    package let control: Mutex<AdaptiveControlState>

    init(slots: [AdaptiveSlot], controller: AdaptiveController, clocks: any MeasurementClocks) {
        self.slots = slots
        self.clocks = clocks
        active = Atomic(controller.size)
        control = Mutex(AdaptiveControlState(controller: controller, clocks: clocks))
    }

    /// The number of queues new work is spread over now.
    var size: Int { active.load(ordering: .relaxed) }

    /// Waits until every queue that was ever active has run what it was handed.
    func drain() {
        let used = control.withLock { $0.highWater }
        for slot in slots.prefix(max(used, size)) { slot.queue.sync {} }
    }

    /// Every decision so far: the size from each decision on, and the window's throughput.
    var steps: [SizeStep] { control.withLock { $0.steps } }

    /// Moves the count to `target`. When it grows, the work waiting on the queues there were is
    /// dealt out again, the new queues first, each item with a token of its own: a starved pool's
    /// new queues start on the waiting work at once. Queues taken out finish what they hold and
    /// get no more.
    func resize(to target: Int) {
        let old = active.load(ordering: .relaxed)
        guard target != old else { return }
        active.store(target, ordering: .relaxed)
        guard target > old else { return }
        let waiting = slots[..<old].flatMap { $0.pending.takeAll() }
        let order = Array(old..<target) + Array(0..<old)
        for (index, work) in waiting.enumerated() { slots[order[index % order.count]].submit(work) }
    }

    /// Work handed to the queues and not yet begun.
    var waiting: Int {
        let used = control.withLock { $0.highWater }
        return slots.prefix(max(used, size)).reduce(0) { $0 + $1.pending.count }
    }
}
