import PoolSizeKit
import PoolSizeModel
import Synchronization

/// A `--postgres` sweep's trials: closed-loop trials on N connections driven by a few threads
/// (`PostgresAsyncDriver`, `--client async`), or on poolsize's own pools of N threads running
/// the source's transactions (`PoolTrialMeasurer`: `--client threads`, and every open-loop
/// trial, whose arrivals a pool waits for), and the server watched around them. A trial in which connections
/// broke (the server stopped, restarted or ended this sweep's backends) is not the pool's: it
/// is recorded invalid, with why, and its failures are not counted against the sweep. When the
/// server cannot be reached after such a trial, the next trial is not run: the sweep stops
/// with one line (exit 69), its finished trials kept for `--resume`.
package final class PostgresTrialMeasurer: TrialMeasuring, Sendable {
    /// The source whose connections the trials use.
    package let source: PostgresSource
    let pools: PoolTrialMeasurer
    /// How the closed loop's connections are driven.
    package let client: PostgresClient
    /// Connections found broken before the trial in progress; and why the server could not be
    /// reached after the last trial, if it could not.
    private let watch = Mutex((lost: 0, unreachable: String?.none))

    /// Trials of `source`'s transactions driven by `client`, poolsize's pools sized for `cores`
    /// (an adaptive pool's formula).
    package init(source: PostgresSource, cores: Int, client: PostgresClient = .async) {
        self.source = source
        self.client = client
        pools = PoolTrialMeasurer(pools: SystemPoolFactory(cores: cores), source: source)
    }

    /// Measures one trial once the server answers; marks it invalid when connections broke
    /// during it.
    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        if watch.withLock({ $0.unreachable }) != nil, let reason = source.unreachable() {
            throw .serviceUnavailable(
                .postgres,
                message:
                    "the server went away during the sweep (\(reason)); the finished trials are kept: start the server and resume the run"
            )
        }
        // Idle backends left by a larger trial are not the smaller pool's, and the server's
        // work per snapshot grows with its backends: they close before the trial.
        source.keepConnections(atMost: request.size)
        var (metrics, integrity) = try measureLoad(request, cores: cores, readRatio: readRatio)
        let lostNow = source.lostConnections()
        let lost = watch.withLock { state in
            defer { state.lost = lostNow }
            return lostNow - state.lost
        }
        guard lost > 0 else {
            watch.withLock { $0.unreachable = nil }
            return (metrics, integrity)
        }
        let reason = source.unreachable()
        watch.withLock { $0.unreachable = reason }
        metrics.invalidReason = Self.invalidReason(lost: lost, unreachable: reason)
        // Its failures are the broken connections', not the transaction's: counted, they would
        // withhold the sweep's recommendation for a trial that is left out already, with why.
        metrics.errors = 0
        return (metrics, integrity)
    }

    /// The trial as its client runs it.
    func measureLoad(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        guard client == .async, case let .closed(settings) = request.loop else {
            return try pools.measure(request, cores: cores, readRatio: readRatio)
        }
        let connections = try source.takeConnections(request.size)
        defer { source.giveBack(connections) }
        let watch = source.windowWatch()
        // A trial that throws never closes its window: whatever the watch started stops here.
        defer { _ = watch.windowClosed() }
        let measurement = try PostgresAsyncDriver.run(
            program: source.program, connections: connections, cores: cores, settings: settings, seed: request.seed,
            watch: watch, failed: { [source] in source.watch.failed(sqlState: $0) })
        return (TrialMetrics(measurement, cores: cores), nil)
    }

    /// Why a trial in which `lost` connections broke is not the pool's; `unreachable` is why
    /// the server could not be reached after it, nil when it could.
    static func invalidReason(lost: Int, unreachable: String?) -> String {
        let broke = "\(lost) connection\(lost == 1 ? "" : "s") to the server broke during the trial"
        guard let unreachable else {
            return "\(broke) (their backends ended; the server answered again after it)"
        }
        return "\(broke), and the server went away: \(unreachable)"
    }

    /// The source's connections close.
    package func sweepEnded() { source.sweepEnded() }
}
