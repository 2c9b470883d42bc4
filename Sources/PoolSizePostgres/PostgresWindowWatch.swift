import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization

/// What one trial's window sees of the database behind a `PostgresSource`'s connections:
/// transactions the server failed, by SQLSTATE, counted as the tasks report them; and, from a
/// `PostgresWaitSampler` started at the window's open and stopped at its close, the backends'
/// wait events and, when the server is on this machine, their CPU. Trials run one at a time, so
/// one watch serves the whole sweep.
final class PostgresWindowWatch: SweepWindowWatch {
    struct State {
        var errors: [String: Int] = [:]
        var sampler: PostgresWaitSampler?
        var isOpen = false
        var closed = false
    }

    let connections: ConnectionFreeList<PostgresConnection>
    let monitor: PostgresConnection?
    let readsBackendCPU: Bool
    private let state = Mutex(State())

    init(connections: ConnectionFreeList<PostgresConnection>, monitor: PostgresConnection?, readsBackendCPU: Bool) {
        self.connections = connections
        self.monitor = monitor
        self.readsBackendCPU = readsBackendCPU
    }

    func windowOpened() {
        let sampler = PostgresWaitSampler(
            backends: .connections(connections), monitor: monitor, readsBackendCPU: readsBackendCPU)
        let started = state.withLock { state in
            guard !state.closed else { return false }
            state.errors = [:]
            state.isOpen = true
            state.sampler = sampler
            return true
        }
        if started { sampler.start() }
    }

    func windowClosed() -> TrialRecord.Watched {
        let (errors, sampler) = state.withLock { state in
            defer {
                state.isOpen = false
                state.sampler = nil
            }
            return (state.isOpen ? state.errors : nil, state.sampler)
        }
        let seen = sampler?.finish()
        guard let errors else { return .nothing }
        return .database(
            DatabaseFigures(
                errorsBySQLState: errors, backendCPUSeconds: seen?.backendCPUSeconds,
                waitSamples: seen?.samples ?? [:], snapshots: seen?.snapshots ?? 0,
                peakConnections: seen?.peakConnections))
    }

    /// A transaction failed with `sqlState` (empty when the connection failed); counted while a
    /// window is open.
    func failed(sqlState: String) {
        state.withLock { state in
            guard state.isOpen else { return }
            state.errors[sqlState.isEmpty ? DatabaseFigures.noSQLState : sqlState, default: 0] += 1
        }
    }

    /// The sweep is over: a running sampler stops and the monitoring connection closes.
    func close() {
        let sampler = state.withLock { state in
            state.closed = true
            state.isOpen = false
            defer { state.sampler = nil }
            return state.sampler
        }
        _ = sampler?.finish()
        monitor?.close()
    }
}
