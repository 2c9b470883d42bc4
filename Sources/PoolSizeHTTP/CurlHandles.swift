import PoolSizeModel
import Synchronization

/// The easy handles of one `HTTPSource`, as a free list: a task takes a handle, makes its
/// request and gives it back. A handle is made only when every existing one is in use, so
/// there are never more handles, nor open connections, than requests that were in flight at
/// once; last in, first out, so the handle a worker gets back is one whose connection is warm.
/// After `close()` every handle is closed: the free ones at once, those in use when given back.
final class CurlHandles: Sendable {
    struct State {
        var free: [CurlEasy] = []
        var live = 0
        var closed = false
    }

    let request: CurlRequest
    private let state = Mutex(State())

    init(request: CurlRequest) {
        self.request = request
    }

    /// A handle for one request: a free one, or a new one when none is free; nil after `close()`.
    func take() throws(PoolSizeError) -> CurlEasy? {
        enum Taken { case closed, reused(CurlEasy), make }
        let taken: Taken = state.withLock { state in
            if state.closed { return .closed }
            if let handle = state.free.popLast() { return .reused(handle) }
            state.live += 1
            return .make
        }
        switch taken {
        case .closed: return nil
        case let .reused(handle): return handle
        case .make:
            do { return try CurlEasy(request: request) } catch {
                state.withLock { $0.live -= 1 }
                throw error
            }
        }
    }

    /// Returns a handle taken with `take()`; after `close()` it is closed instead.
    func giveBack(_ handle: CurlEasy) {
        let keep = state.withLock { state in
            if state.closed { state.live -= 1; return false }
            state.free.append(handle)
            return true
        }
        if !keep { handle.close() }
    }

    /// Closes every free handle (and its connection) now, and every handle in use when it is
    /// given back; later `take()`s return nil. Idempotent.
    func close() {
        let drained = state.withLock { state in
            state.closed = true
            defer { state.live -= state.free.count; state.free = [] }
            return state.free
        }
        for handle in drained { handle.close() }
    }

    /// Handles that exist now, free or in use.
    var count: Int { state.withLock { $0.live } }
}
