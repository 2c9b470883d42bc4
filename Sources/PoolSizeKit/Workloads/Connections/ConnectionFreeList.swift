import PoolSizeModel
import Synchronization

/// The connections of one workload source: a task takes one, runs on it and gives it back. One
/// is opened only when every open one is in use, so a pool of N threads holds at most N, as a
/// connection pool of N does. A thread first tries the connection it used last, claimed with one
/// compare-and-swap: in the steady state each pool thread keeps its own connection and no task
/// touches the list's lock, whose contention would put threads to sleep between a request and
/// its answer. After `close()` every connection is closed: the free ones at once, those in use
/// when given back.
package final class ConnectionFreeList<Connection: PooledConnection>: Sendable {
    /// One open connection and whether a task holds it.
    final class Slot: Sendable {
        let connection: Connection
        let inUse = Atomic<Bool>(true)
        init(_ connection: Connection) { self.connection = connection }
        /// Takes the slot when free.
        func claim() -> Bool {
            inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }
        func release() { inUse.store(false, ordering: .releasing) }
    }

    private let slots = Mutex<[Slot]>([])
    private let opened = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)
    private let lost = Atomic<Int>(0)
    private let owner = ThreadLastConnection.nextOwner()
    private let open: @Sendable (Int) throws(PoolSizeError) -> Connection

    /// A list that opens a connection with `open`, given the connection's number (0, 1, 2…).
    package init(open: @escaping @Sendable (Int) throws(PoolSizeError) -> Connection) {
        self.open = open
    }

    /// A connection for one task: the calling thread's last one when free, another free one, or
    /// a new one when none is free; nil after `close()`. A connection no longer usable is closed
    /// and replaced. Throws what opening a new one throws.
    package func take() throws(PoolSizeError) -> Connection? {
        if let last = ThreadLastConnection.slot(owner: owner), case let slot = unsafeDowncast(last, to: Slot.self),
            slot.claim()
        {
            if let connection = checked(slot) { return connection }
        }
        while !closed.load(ordering: .acquiring) {
            let free = slots.withLock { slots in slots.last { $0.claim() } }
            if let free {
                if let connection = checked(free) {
                    ThreadLastConnection.remember(free, owner: owner)
                    return connection
                }
                continue
            }
            let slot = Slot(try open(opened.wrappingAdd(1, ordering: .relaxed).oldValue))
            let kept = slots.withLock { slots in
                guard !closed.load(ordering: .acquiring) else { return false }
                slots.append(slot)
                return true
            }
            guard kept else {
                slot.connection.close()
                return nil
            }
            ThreadLastConnection.remember(slot, owner: owner)
            return slot.connection
        }
        return nil
    }

    /// Returns a connection `take()` gave; after `close()` it is closed instead.
    package func giveBack(_ connection: Connection) {
        let slot: Slot
        if let last = ThreadLastConnection.slot(owner: owner), case let mine = unsafeDowncast(last, to: Slot.self),
            mine.connection === connection
        {
            slot = mine
        } else if let found = slots.withLock({ slots in slots.first { $0.connection === connection } }) {
            slot = found
        } else {
            connection.close()
            return
        }
        slot.release()
        // A close() that ran while the connection was in use left it to be closed here.
        if closed.load(ordering: .acquiring), slot.claim() { discard(slot) }
    }

    /// Closes every free connection now, and every one in use when it is given back; later
    /// `take()`s return nil. Idempotent.
    package func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        let free = slots.withLock { slots in slots.filter { $0.claim() } }
        for slot in free { discard(slot) }
    }

    /// Closes free connections, the last opened first, until at most `limit` are open: a trial
    /// of a smaller pool after a larger one then holds only the connections its own pool would,
    /// not the larger one's left idle on the server. Connections in use are left; returns how
    /// many were closed.
    @discardableResult
    package func closeFree(beyond limit: Int) -> Int {
        let extra = slots.withLock { slots in
            var surplus = slots.count - max(0, limit)
            var taken: [Slot] = []
            for slot in slots.reversed() where surplus > 0 && slot.claim() {
                taken.append(slot)
                surplus -= 1
            }
            return taken
        }
        for slot in extra { discard(slot) }
        return extra.count
    }

    /// Connections found broken so far (their server ended them, or went away): those `take()`
    /// dropped, and the free ones broken now, which are dropped here (a trial's last tasks may
    /// have broken connections no task took again).
    package func lostSoFar() -> Int {
        let broken = slots.withLock { slots in slots.filter { !$0.connection.isUsable && $0.claim() } }
        for slot in broken { discard(slot) }
        return lost.add(broken.count, ordering: .relaxed).newValue
    }

    /// Connections open now, free or in use.
    package var count: Int { slots.withLock { $0.count } }

    /// Every open connection, free or in use (to read facts about them, not to use them).
    package var connections: [Connection] { slots.withLock { $0.map(\.connection) } }

    /// The claimed `slot`'s connection when it can serve a task: the list is open and the
    /// connection usable; otherwise the slot is closed and dropped, and nil.
    private func checked(_ slot: Slot) -> Connection? {
        if !closed.load(ordering: .acquiring) {
            if slot.connection.isUsable { return slot.connection }
            lost.add(1, ordering: .relaxed)
        }
        discard(slot)
        return nil
    }

    /// Closes a claimed slot's connection and removes it from the list.
    private func discard(_ slot: Slot) {
        slots.withLock { slots in slots.removeAll { $0 === slot } }
        slot.connection.close()
    }
}
