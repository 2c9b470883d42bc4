import PoolSizeKit
import PoolSizeModel
import Synchronization

/// The database behind a server, watched over each trial's window: every client backend of its
/// database but the watch's own (the server's pools, idle connections included), their states
/// and wait events (`PostgresWaitSampler`), the most of them at once and, when the server is
/// on this machine, their CPU. The monitoring connection is opened at the first window, not
/// before (a sweep's plan is checked without touching the database), and closed by `close()`.
package final class PostgresDatabaseWatch: SweepWindowWatch {
    private struct State {
        var monitor: PostgresConnection?
        var local = false
        var sampler: PostgresWaitSampler?
        var closed = false
    }

    /// The database's libpq URL or key=value string.
    let conninfo: String
    private let state = Mutex(State())

    /// A watch of the database `conninfo` names.
    package init(conninfo: String) { self.conninfo = conninfo }

    package func windowOpened() {
        let sampler: PostgresWaitSampler? = state.withLock { state in
            guard !state.closed else { return nil }
            if state.monitor?.isUsable != true {
                state.monitor?.close()
                // A database that cannot be reached now leaves the window unwatched: the chain
                // read it before the first trial, and the trial's own requests say what failed.
                state.monitor = try? PostgresConnection(conninfo, clientID: -1, parameter: .database)
                state.local = state.monitor?.serverIsLocal ?? false
            }
            guard let monitor = state.monitor else { return nil }
            let sampler = PostgresWaitSampler(backends: .database, monitor: monitor, readsBackendCPU: state.local)
            state.sampler = sampler
            return sampler
        }
        sampler?.start()
    }

    package func windowClosed() -> TrialRecord.Watched {
        let sampler = state.withLock { state in
            defer { state.sampler = nil }
            return state.sampler
        }
        guard let seen = sampler?.finish() else { return .nothing }
        return .database(
            DatabaseFigures(
                backendCPUSeconds: seen.backendCPUSeconds, waitSamples: seen.samples, snapshots: seen.snapshots,
                peakConnections: seen.peakConnections))
    }

    package func close() {
        let (sampler, monitor) = state.withLock { state in
            state.closed = true
            defer {
                state.sampler = nil
                state.monitor = nil
            }
            return (state.sampler, state.monitor)
        }
        _ = sampler?.finish()
        monitor?.close()
    }

    deinit { close() }
}
