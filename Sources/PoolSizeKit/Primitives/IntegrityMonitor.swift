import PoolSizeModel
import Synchronization

/// The shared state a critical section updates, and the evidence of whether the primitive
/// guarding it really excluded other tasks.
///
/// Writers update `value` *non-atomically*: read it, do the section's work, write it back
/// plus one. Two writers inside at once lose an update, so after a trial `value` must equal the
/// writes counted atomically. Occupancy counters catch overlap directly as well, including a
/// reader inside while a writer is (which a lost update cannot show).
package final class IntegrityMonitor: @unchecked Sendable {
    // @unchecked: `value` is deliberately unsynchronized; it is the state the primitive under
    // test must protect, and reading it racily is how a broken primitive is caught.
    private let value: UnsafeMutablePointer<Int>
    private let writersInside = Atomic<Int>(0)
    private let readersInside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)
    private let reads = Atomic<Int>(0)
    private let atomicValue = Atomic<Int>(0)

    package init() {
        value = .allocate(capacity: 1)
        value.initialize(to: 0)
    }

    deinit { value.deallocate() }

    /// A read-modify-write of the shared value around `body`. Call only while holding the
    /// primitive exclusively.
    package func write(_ body: () -> Void) {
        let writers = writersInside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        if writers > 1 || readersInside.load(ordering: .sequentiallyConsistent) > 0 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        let before = readValue()
        body()
        writeValue(before + 1)
        writersInside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        writes.wrappingAdd(1, ordering: .relaxed)
    }

    /// A read of the shared value around `body`. Call while holding the primitive shared.
    package func read(_ body: () -> Void) {
        readersInside.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if writersInside.load(ordering: .sequentiallyConsistent) > 0 { overlaps.wrappingAdd(1, ordering: .relaxed) }
        _ = readValue()
        body()
        readersInside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        reads.wrappingAdd(1, ordering: .relaxed)
    }

    /// The lock-free update: one atomic add, counted as a write.
    package func atomicAdd() {
        atomicValue.wrappingAdd(1, ordering: .relaxed)
        writes.wrappingAdd(1, ordering: .relaxed)
    }

    @inline(never) private func readValue() -> Int { value.pointee }
    @inline(never) private func writeValue(_ v: Int) { value.pointee = v }

    /// Critical sections entered so far.
    package var sections: Int { writes.load(ordering: .relaxed) + reads.load(ordering: .relaxed) }

    /// Checks the state after every task has finished.
    package func verify() -> IntegrityReport {
        let expected = writes.load(ordering: .sequentiallyConsistent)
        return IntegrityReport(
            sections: sections, writes: expected,
            finalValue: readValue() + atomicValue.load(ordering: .sequentiallyConsistent),
            overlaps: overlaps.load(ordering: .sequentiallyConsistent))
    }
}

/// What the integrity check found after a trial.
package struct IntegrityReport: Equatable, Sendable {
    /// Critical sections entered.
    package var sections: Int
    /// Updates made to the shared value.
    package var writes: Int
    /// The shared value; equals `writes` when no update was lost.
    package var finalValue: Int
    /// Times a task entered while another held the section exclusively.
    package var overlaps: Int

    /// No update lost and no two tasks inside at once.
    package var isIntact: Bool { finalValue == writes && overlaps == 0 }

    /// `ok` or `violated`, the `integrity` column.
    package var verdict: Integrity { isIntact ? .ok : .violated }

    /// The counts in one line, for messages.
    package var details: String {
        "\(sections) critical sections, shared value \(finalValue) after \(writes) writes (\(writes - finalValue) lost), \(overlaps) overlapping entries"
    }
}
