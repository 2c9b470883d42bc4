import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PoolSizeKit
import Synchronization

/// `poolsize serve`: a real HTTP/1.1 server (SwiftNIO) whose every answer costs `cpu` of the
/// serving thread's CPU and then waits `delay`, so a sweep with `--http` has a target whose
/// limits are known.
///
/// Without `workers`, the CPU is burnt on the event-loop thread that owns the connection, as a
/// synchronous handler would, and the delay is a timer on that loop that holds no thread: the
/// server is CPU-bound at min(threads, cores) / cpu requests a second, unlimited by the delay
/// alone. With `workers`, each request goes to a thread-per-request pool of that many threads
/// (`RequestWorkers`) that burns the CPU and then sleeps through the delay holding its thread,
/// as a blocking server does: at most workers / (cpu + delay) a second, so its throughput over
/// `workers` has its knee near cores × (1 + delay / cpu), what a server-side sweep looks for.
public final class LoadServer: Sendable {
    /// What the server does per request.
    public struct Behaviour: Equatable, Sendable {
        /// CPU burnt per request, in microseconds.
        public var cpuMicroseconds: Double
        /// Wait before answering, in microseconds.
        public var delayMicroseconds: Double
        /// Draw each request's CPU and delay from an exponential distribution with these means.
        public var exponential: Bool

        /// A behaviour; zero CPU and zero delay answer at once.
        public init(cpuMicroseconds: Double = 0, delayMicroseconds: Double = 0, exponential: Bool = false) {
            self.cpuMicroseconds = cpuMicroseconds
            self.delayMicroseconds = delayMicroseconds
            self.exponential = exponential
        }

        /// `threads=2 cpu_us=1000 delay_us=10000 jitter=none`: sent in the `X-Poolsize-Server`
        /// header of every answer, so a sweep can say when the server is what limits it.
        /// `threads` are those that burn the CPU: with `workers`, the workers, and a `workers=N`
        /// field says that the delay holds one too (`threads=20 workers=20 …`), so a reader
        /// that knows only `threads` still bounds the CPU capacity from above.
        public func headerValue(threads: Int, workers: Int? = nil) -> String {
            let serving = workers.map { "threads=\($0) workers=\($0)" } ?? "threads=\(threads)"
            return
                "\(serving) cpu_us=\(Self.plain(cpuMicroseconds)) delay_us=\(Self.plain(delayMicroseconds)) jitter=\(exponential ? "exponential" : "none")"
        }

        static func plain(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// Why the server could not listen: the part of the address at fault (a name that does not
    /// resolve or an address this machine lacks is the host's; a port in use or reserved is the
    /// port's) and the system's reason.
    package struct ListenFailure: Error, Equatable, Sendable {
        /// The part of the address to change.
        package enum Part: Sendable {
            /// The name does not resolve, or the address is not this machine's.
            case host
            /// The port is in use or reserved.
            case port
        }
        /// Which to change.
        package let part: Part
        /// The system's reason (`Address already in use`).
        package let reason: String
    }

    /// The header naming the server's behaviour.
    public static let headerName = "X-Poolsize-Server"

    let group: MultiThreadedEventLoopGroup
    let channel: any Channel
    /// Requests answered, failed and connections open since the start.
    public let counters: ServerCounters
    /// The event-loop threads: the server's own pool size when there are no workers.
    public let threads: Int
    /// The thread-per-request pool's threads, or nil when requests are served on the loops.
    public var workers: Int? { requestWorkers?.count }
    let requestWorkers: RequestWorkers?
    /// What each request costs.
    public let behaviour: Behaviour

    /// Binds `host:port` (port 0 picks a free one) and starts serving on `threads` event-loop
    /// threads, or, with `workers`, on that many worker threads fed by the loops.
    /// Throws `ListenFailure` when it cannot bind.
    package init(
        host: String, port: Int, threads: Int, workers: Int? = nil, behaviour: Behaviour,
        burner: CPUBurner = CPUBurner(), seed: UInt64 = 1
    ) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let counters = ServerCounters()
        let requestWorkers = workers.map { RequestWorkers(count: $0, counters: counters, burner: burner) }
        let header = behaviour.headerValue(threads: threads, workers: workers)
        let seeds = Atomic<UInt64>(seed)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let connectionSeed = seeds.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
                return channel.pipeline.configureHTTPServerPipeline(
                    withPipeliningAssistance: true, withErrorHandling: true
                ).flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(
                        LoadHandler(
                            behaviour: behaviour, header: header, counters: counters, burner: burner,
                            workers: requestWorkers, seed: connectionSeed))
                }
            }
        do {
            self.channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            requestWorkers?.stop()
            try? group.syncShutdownGracefully()
            // A name that does not resolve (999.1.1.1 is tried as one) comes as NIO's
            // SocketAddressError.UnknownHost, a type of its own beside the SocketAddressError enum.
            if let unknown = error as? SocketAddressError.UnknownHost {
                throw ListenFailure(part: .host, reason: unknown.errorDescription)
            }
            let code = (error as? IOError)?.errnoCode
            let reason =
                code.map { String(cString: strerror($0)) } ?? String(describing: error).split(
                    whereSeparator: \.isNewline
                ).first.map(String.init) ?? "unknown error"
            let hosts = error is SocketAddressError || code == EADDRNOTAVAIL || code == EAFNOSUPPORT
            throw ListenFailure(part: hosts ? .host : .port, reason: reason)
        }
        self.group = group
        self.counters = counters
        self.threads = threads
        self.requestWorkers = requestWorkers
        self.behaviour = behaviour
    }

    /// The URL the server answers on, e.g. `http://127.0.0.1:8080/`.
    public var url: String {
        let address = channel.localAddress
        let host = address?.ipAddress ?? "127.0.0.1"
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(address?.port ?? 0)/"
    }

    /// Stops accepting, closes every connection and joins the threads. Workers are woken and
    /// joined while the loops still run, since their answers go through the loops.
    public func stop() {
        counters.stopping.store(true, ordering: .relaxed)
        try? channel.close().wait()
        if let requestWorkers {
            requestWorkers.stop()
            // The workers' last answers are queued on the loops: let each loop run them before
            // it shuts down, so every request they served is counted and sent.
            for loop in group.makeIterator() { try? loop.submit {}.wait() }
        }
        try? group.syncShutdownGracefully()
    }
}

/// The server's running totals, read once a second for its rate line.
public final class ServerCounters: Sendable {
    /// Requests answered with a success status.
    public let answered = Atomic<Int>(0)
    /// Requests answered with an error status (`/status/NNN` with NNN ≥ 400, or a bad request).
    public let failed = Atomic<Int>(0)
    /// Connections open now.
    public let open = Atomic<Int>(0)
    /// Connections accepted since the start.
    public let accepted = Atomic<Int>(0)
    /// Requests received and not yet answered.
    public let inFlight = Atomic<Int>(0)
    /// The most requests that were in flight at once: what a load driver kept outstanding.
    public let mostInFlight = Atomic<Int>(0)
    /// With workers: requests waiting for a worker now.
    public let queued = Atomic<Int>(0)
    /// With workers: the most requests that waited for a worker at once.
    public let mostQueued = Atomic<Int>(0)
    /// With workers: workers serving a request now (burning its CPU or holding its delay).
    public let busyWorkers = Atomic<Int>(0)
    /// With workers: the most workers that served at once, never more than there are.
    public let mostBusyWorkers = Atomic<Int>(0)
    /// Set by `stop`: requests still burning their CPU stop doing so.
    public let stopping = Atomic<Bool>(false)

    init() {}
}
