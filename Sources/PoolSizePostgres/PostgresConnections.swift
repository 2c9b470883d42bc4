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
        /// The backend of every connection opened, in order (a closed one's process has gone).
        var backends: [Int32] = []
    }

    let conninfo: String
    private let state = Mutex(State())

    init(conninfo: String) { self.conninfo = conninfo }

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
                state.withLock { $0.live -= 1 }
            case let .make(ordinal):
                do {
                    let connection = try PostgresConnection(conninfo, clientID: ordinal)
                    state.withLock { $0.backends.append(connection.backendPID) }
                    return connection
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

    /// Connections open now, free or in use.
    var count: Int { state.withLock { $0.live } }

    /// The backends of every connection opened so far, free or in use; one since closed is
    /// listed still (its process has gone, so /proc and pg_stat_activity no longer show it).
    var backends: [Int32] { state.withLock { $0.backends } }

    /// The backends of the free connections (those in use are busy in a transaction).
    var idleBackends: [Int32] { state.withLock { $0.free.map(\.backendPID) } }
}
