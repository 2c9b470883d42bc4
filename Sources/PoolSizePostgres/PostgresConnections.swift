import PoolSizeModel
import Synchronization

/// The connections of one `PostgresSource`, as a free list: a task takes a connection, runs its
/// transaction and gives it back. One is opened only when every open one is in use, so a pool
/// of N threads holds at most N connections, as a connection pool of N does; last in, first
/// out, so a thread gets back the connection it used last. After `close()` every connection is
/// closed: the free ones at once, those in use when given back.
final class PostgresConnections: Sendable {
    struct State {
        var free: [PostgresConnection] = []
        var live = 0
        var opened = 0
        var closed = false
        /// Connections found broken: their backend ended (the server stopped, or ended them).
        var lost = 0
    }

    let conninfo: String
    /// The statement timeout each connection sets; nil for the server's own.
    let statementTimeoutSeconds: Double?
    private let state = Mutex(State())

    init(conninfo: String, statementTimeoutSeconds: Double? = nil) {
        self.conninfo = conninfo
        self.statementTimeoutSeconds = statementTimeoutSeconds
    }

    /// A connection for one transaction: a free one, or a new one when none is free; nil after
    /// `close()`. A broken connection (its backend ended) is dropped and replaced.
    func take() throws(PoolSizeError) -> PostgresConnection? {
        enum Taken { case closed, reused(PostgresConnection), make(Int) }
        while true {
            let taken: Taken = state.withLock { state in
                if state.closed { return .closed }
                if let connection = state.free.popLast() { return .reused(connection) }
                state.live += 1
                state.opened += 1
                return .make(state.opened - 1)
            }
            switch taken {
            case .closed: return nil
            case let .reused(connection):
                if connection.isUsable { return connection }
                connection.close()
                state.withLock {
                    $0.live -= 1
                    $0.lost += 1
                }
            case let .make(ordinal):
                do {
                    return try PostgresConnection(
                        conninfo, clientID: ordinal, statementTimeoutSeconds: statementTimeoutSeconds)
                } catch {
                    state.withLock { $0.live -= 1 }
                    throw error
                }
            }
        }
    }

    /// Returns a connection taken with `take()`; after `close()` it is closed instead.
    func giveBack(_ connection: PostgresConnection) {
        let keep = state.withLock { state in
            if state.closed {
                state.live -= 1
                return false
            }
            state.free.append(connection)
            return true
        }
        if !keep { connection.close() }
    }

    /// Closes every free connection now, and every one in use when it is given back; later
    /// `take()`s return nil. Idempotent.
    func close() {
        let drained = state.withLock { state in
            state.closed = true
            defer {
                state.live -= state.free.count
                state.free = []
            }
            return state.free
        }
        for connection in drained { connection.close() }
    }

    /// Connections found broken so far: those `take()` dropped, and the free ones broken now,
    /// which are dropped here (a trial's last transactions may have broken connections no
    /// task took again).
    func lostSoFar() -> Int {
        let broken = state.withLock { state in
            let broken = state.free.filter { !$0.isUsable }
            state.free.removeAll { !$0.isUsable }
            state.live -= broken.count
            state.lost += broken.count
            return (broken, state.lost)
        }
        for connection in broken.0 { connection.close() }
        return broken.1
    }

    /// Connections open now, free or in use.
    var count: Int { state.withLock { $0.live } }

    /// The backends of the free connections (those in use are busy in a transaction).
    var idleBackends: [Int32] { state.withLock { $0.free.map(\.backendPID) } }
}
