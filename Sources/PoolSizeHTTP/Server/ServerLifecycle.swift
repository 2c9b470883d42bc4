import Foundation
import PoolSizeModel
import PoolSizeProcess

/// The server's life over a sweep: started at a size and seen to answer, kept between trials
/// (the low-load phase's rounds, or the one server a resize command sizes), and stopped.
final class ServerLifecycle: @unchecked Sendable {
    // @unchecked: the sweep calls the measurer, and so this, from one thread, in turn.

    /// The command that starts the server.
    let command: ServerCommand
    /// The URL loaded and probed.
    let url: ServerURL
    /// How long a started server may take to answer with a 2xx.
    let readyTimeoutSeconds: Double
    /// How long a stopped server has between its stop signal and SIGKILL.
    let graceSeconds: Double
    /// The signal that stops a server (SIGTERM unless the user named another).
    let stopSignal: Int32
    /// The command that sets the running server's size; nil: restart at each size.
    let resize: ServerResize?
    /// The request for a URL (the method, headers and body of `--http`).
    private let makeTarget: @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    /// The server kept between trials: the low-load phase's between its rounds, and with a
    /// resize command the one server of the whole sweep.
    private(set) var held: RunningServer?
    /// Whether a server has answered in this sweep: until then a server that fails to start
    /// ends the sweep (nothing would work), after it a failure is that trial's.
    private(set) var answeredOnce = false
    /// Whether the sweep's load opens a new connection for each request, decided at the first
    /// server that answered and kept for every trial after it, so that one sweep's trials are
    /// loaded alike: yes when more than one of its processes holds the listening socket
    /// (gunicorn's or Puma's workers, each accepting for itself). A kept-alive connection stays
    /// on the worker that accepted it, and which worker accepts the load's connections as they
    /// open is the scheduler's draw: a trial's throughput would vary by a sixth between starts
    /// at one size, and a worker could be left with none. Opening one per request lets each
    /// worker take what it can, as behind a proxy that does not keep connections to it.
    private(set) var connectionPerRequest: Bool?

    /// The longest a server that answers is given to settle (its other workers to come up)
    /// before it is measured anyway.
    static let settleLimitSeconds = 5.0

    /// Waits until `process`, which answers, has settled: at most `settleLimitSeconds`, and no
    /// longer than it was given to answer.
    static func waitUntilSettled(_ process: ServerProcess, readyTimeoutSeconds: Double) {
        process.waitUntilSettled(timeoutSeconds: min(readyTimeoutSeconds, settleLimitSeconds))
    }

    init(
        command: ServerCommand, url: ServerURL, readyTimeoutSeconds: Double, graceSeconds: Double,
        stopSignal: Int32 = SIGTERM, resize: ServerResize?,
        makeTarget: @escaping @Sendable (String) throws(PoolSizeError) -> HTTPTarget
    ) {
        self.command = command
        self.url = url
        self.readyTimeoutSeconds = readyTimeoutSeconds
        self.graceSeconds = graceSeconds
        self.stopSignal = stopSignal
        self.resize = resize
        self.makeTarget = makeTarget
    }

    deinit { stopHeld() }

    /// Whether the next server `acquire(size:keep: true)` gives is one just started: none is
    /// held, or the held one has exited.
    var startsFresh: Bool { held == nil || held?.process.hasExited == true }

    /// A server answering at `size`: with a resize command the one held server (started once),
    /// resized when its size differs; else a server started at `size`, kept when `keep` (the
    /// low-load phase's rounds), the held one reused when it runs at that size.
    func acquire(size: Int, keep: Bool) throws(PoolSizeError) -> RunningServer {
        if let current = held, current.process.hasExited { held = nil }
        if let resize {
            var server: RunningServer
            if let current = held { server = current } else { server = try start(size: size) }
            held = server
            if server.size != size {
                try resize.run(size: size, on: server)
                server.size = size
                held = server
                try resize.settle(server, readyTimeoutSeconds: readyTimeoutSeconds)
            }
            return server
        }
        if keep, let current = held, current.size == size { return current }
        stopHeld()
        let server = try start(size: size)
        if keep { held = server }
        return server
    }

    /// Lets `server` go after its trial: stopped unless it is the one a resize command sizes.
    /// The stop ends before the next server starts, though it may take a second (gunicorn's):
    /// a server still stopping holds its database connections, and the next trial's would
    /// count them (a chain's peak connections went from 4 to 8 when stops ran beside starts).
    func release(_ server: RunningServer) {
        if resize == nil { stop(server) }
    }

    /// Stops `server` (its `stopSignal`, `graceSeconds`, SIGKILL).
    func stop(_ server: RunningServer) { server.process.stop(graceSeconds: graceSeconds) }

    /// Stops the held server, and holds none.
    func stopHeld() {
        held?.process.stop(graceSeconds: graceSeconds)
        held = nil
    }

    /// Whether more than one of `process`'s session holds the socket listening on the port
    /// the target loads (`port`, else the URL's, else its scheme's).
    static func sharesListener(_ process: ServerProcess, port: Int?, target: HTTPTarget) -> Bool {
        let https = target.url.lowercased().hasPrefix("https:")
        let loaded = port ?? HTTPTarget.portText(target.url).flatMap { Int($0) } ?? (https ? 443 : 80)
        return ProcReader.listeners(onPort: loaded, among: ServerProcess.processes(inSession: process.pid)).count > 1
    }

    /// A server of `size` threads started and answering, on a free port when the command takes
    /// `{port}`. A server that exits before it answers because its port was taken meanwhile is
    /// started once more on another.
    func start(size: Int) throws(PoolSizeError) -> RunningServer {
        var attempt = 0
        while true {
            attempt += 1
            let port = command.usesPort ? try ServerProcess.freeLoopbackPort() : nil
            let target = try makeTarget(url.url(port: port))
            let probe = try HTTPReadinessProbe(target: target)
            if port == nil {
                let answer = probe.check()
                if answer.ready || answer.answer.hasPrefix("HTTP") {
                    throw .invalidParameter(
                        .httpURL,
                        message:
                            "\(target.redactedURL) answers (\(answer.answer)) before the server is started: another process holds the port; stop it, or let poolsize pick one with {port} in both \(PoolSizeError.Parameter.server.mention) and the URL"
                    )
                }
            }
            let process = try ServerProcess(
                arguments: command.arguments(size: size, port: port), stopSignal: stopSignal)
            do {
                try process.waitUntilReady(timeoutSeconds: readyTimeoutSeconds) { probe.check() }
                Self.waitUntilSettled(process, readyTimeoutSeconds: readyTimeoutSeconds)
                if connectionPerRequest == nil {
                    connectionPerRequest = Self.sharesListener(process, port: port, target: target)
                }
                answeredOnce = true
                // A server a resize command sizes has not been sized yet (size 0).
                return RunningServer(
                    size: resize == nil ? size : 0, process: process, target: target, port: port,
                    connectionPerRequest: connectionPerRequest ?? false)
            } catch {
                process.stop(graceSeconds: graceSeconds)
                let taken = process.output.standardError.localizedCaseInsensitiveContains("in use")
                if port != nil, taken, attempt < 2 { continue }
                throw error
            }
        }
    }
}
