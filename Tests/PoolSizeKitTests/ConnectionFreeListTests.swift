@testable import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

@Suite struct ConnectionFreeListTests {
    /// A connection that only records whether it was closed.
    final class Recorded: PooledConnection {
        let number: Int
        private let closed = Atomic<Bool>(false)
        init(number: Int) { self.number = number }
        var isUsable: Bool { !closed.load(ordering: .relaxed) }
        var wasClosed: Bool { closed.load(ordering: .relaxed) }
        func close() { closed.store(true, ordering: .relaxed) }
    }

    /// A list with `count` connections opened (numbers 0…count-1), all given back.
    static func list(opening count: Int) throws -> (ConnectionFreeList<Recorded>, [Recorded]) {
        let list = ConnectionFreeList<Recorded> { number in Recorded(number: number) }
        var taken: [Recorded] = []
        for _ in 0..<count { taken.append(try #require(try list.take())) }
        for connection in taken { list.giveBack(connection) }
        return (list, taken)
    }

    /// After a trial of 5, one of 2 keeps two connections: the three opened last are closed,
    /// the first two stay open and serve the next tasks.
    @Test func closeFreeBeyondALimitClosesTheLastOpened() throws {
        let (list, opened) = try Self.list(opening: 5)
        #expect(opened.map(\.number) == [0, 1, 2, 3, 4])
        #expect(list.closeFree(beyond: 2) == 3)
        #expect(list.count == 2)
        #expect(opened.map(\.wasClosed) == [false, false, true, true, true])
        let next = try #require(try list.take())
        #expect([0, 1].contains(next.number))
        list.giveBack(next)
        #expect(list.closeFree(beyond: 2) == 0)
    }

    /// A connection a task holds is never closed under it: only free ones go.
    @Test func closeFreeLeavesConnectionsInUse() throws {
        let (list, _) = try Self.list(opening: 3)
        let held = try #require(try list.take())
        #expect(list.closeFree(beyond: 0) == 2)
        #expect(list.count == 1)
        #expect(!held.wasClosed)
        list.giveBack(held)
        #expect(list.closeFree(beyond: 0) == 1)
        #expect(held.wasClosed)
        #expect(list.count == 0)
    }
}
