import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// Measures a trial of the pool inside a server (`sweep --server`): starts the server's command
/// with the trial's size, waits until the URL answers with a 2xx, loads it with `connections`
/// requests in flight from one event-driven thread (`HTTPLoadDriver`), reads the server's
/// process tree from /proc as the window opens and closes, and stops the server. The sweep's
/// one trial loop (`SweepRunner`) decides the order, repetitions and sizes, as for any pool.
///
/// The figures are the server's: throughput counts 2xx answers only, C is the CPU the server's
/// processes used per answered request, utilization their share of the cores; the driver's own
/// CPU per request is recorded beside them. Each job is a part of its own: the server's life
/// (`ServerLifecycle`, with `ServerResize`), the load (`ServerLoad`), the low-load estimate
/// (`ServerLowLoad`), the figures (`ServerTrialFigures`) and the validity rules with their
/// wording (`ServerTrialValidity`).
package final class ServerTrialMeasurer: TrialMeasuring, @unchecked Sendable {
    // @unchecked: the sweep calls `measure` from one thread, in turn.

    /// The command that starts the server.
    package var command: ServerCommand { lifecycle.command }
    /// The URL loaded and probed.
    package var url: ServerURL { lifecycle.url }
    /// Requests kept in flight during a trial.
    package var connections: Int { load.connections }
    /// How long a started server may take to answer with a 2xx.
    package var readyTimeoutSeconds: Double { lifecycle.readyTimeoutSeconds }
    /// How long one request may take before it counts as failed.
    package var requestTimeoutSeconds: Double { load.requestTimeoutSeconds }
    /// How long a stopped server has between its stop signal and SIGKILL.
    package var graceSeconds: Double { lifecycle.graceSeconds }
    /// The signal that stops a server (SIGTERM unless the user named another).
    package var stopSignal: Int32 { lifecycle.stopSignal }
    /// The user's own load tool (`load`, `parse`) run once per trial instead of the driver, with
    /// its timeout; nil: the event-driven driver loads the URL.
    package var loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)? { load.loadTool }
    /// The command that sets the running server's size instead of a restart (`resize`), and how
    /// long the server is given after it before it is measured; nil: restart at each size.
    package var resize: ServerResize? { lifecycle.resize }
    /// The server: started, kept between trials, resized and stopped.
    private let lifecycle: ServerLifecycle
    /// How each trial is loaded.
    private let load: ServerLoad

    /// A measurer of `command`'s server at `url`.
    package init(
        command: ServerCommand, url: ServerURL, connections: Int, readyTimeoutSeconds: Double,
        requestTimeoutSeconds: Double = 30, graceSeconds: Double = 5, stopSignal: Int32 = SIGTERM,
        resize: ServerResize? = nil,
        loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)? = nil,
        database: (any SweepWindowWatch)? = nil,
        makeTarget: @escaping @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    ) {
        lifecycle = ServerLifecycle(
            command: command, url: url, readyTimeoutSeconds: readyTimeoutSeconds, graceSeconds: graceSeconds,
            stopSignal: stopSignal, resize: resize,
            makeTarget: makeTarget)
        load = ServerLoad(
            connections: connections, requestTimeoutSeconds: requestTimeoutSeconds, graceSeconds: graceSeconds,
            loadTool: loadTool, database: database)
    }

    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        if request.lowLoad, case let .closed(settings) = request.loop {
            let lowLoad = ServerLowLoad(lifecycle: lifecycle, requestTimeoutSeconds: requestTimeoutSeconds)
            return (try lowLoad.round(request, settings: settings, cores: cores), nil)
        }
        let server: RunningServer
        do {
            server = try lifecycle.acquire(size: request.size, keep: lifecycle.resize != nil)
        } catch {
            // A failing resize command is the user's to fix whatever happened before; a start an
            // interrupt cut short is no trial at all.
            guard !ServerProcess.isStopping, lifecycle.answeredOnce, case .invalidParameter(let parameter, _) = error,
                parameter != .resize
            else {
                throw error
            }
            // The reason is a trial's note in trials.csv, not an error line of its own.
            let line = error.description
            let reason = line.hasPrefix("error: ") ? String(line.dropFirst("error: ".count)) : line
            return (ServerTrialValidity.failedTrial(size: request.size, reason: reason), nil)
        }
        defer { lifecycle.release(server) }
        return (try load.measure(request, server: server, cores: cores), nil)
    }

    /// Stops the server kept between trials and closes the database's watch.
    package func sweepEnded() {
        lifecycle.stopHeld()
        load.database?.close()
    }

    /// The connections an open-loop trial needs (`ServerTrialValidity.neededConnections`).
    package static func neededConnections(ratePerSecond: Double, latencySLOMicroseconds: Double?, size: Int) -> Int {
        ServerTrialValidity.neededConnections(
            ratePerSecond: ratePerSecond, latencySLOMicroseconds: latencySLOMicroseconds, size: size)
    }
}
