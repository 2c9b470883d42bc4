import ArgumentParser
import Foundation
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel

/// `poolsize serve`: parse → validate → serve until a signal or `--duration`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Run a local HTTP server whose answers cost known CPU and delay: a target for 'poolsize sweep --http'.",
        discussion:
            "Each request burns --cpu on the serving thread (one of --threads), then is answered after --delay without holding a thread, so the delay alone sets no limit. With --workers N the server is thread-per-request instead, as gunicorn's gthread workers or a Tomcat executor: each request waits in one FIFO for one of N worker threads, which burns --cpu and then sleeps through --delay still holding its thread; at most N requests are served at once, and throughput over N levels off near cores × (1 + delay/cpu) (--cpu 1ms --delay 9ms on 2 cores: near 20), the size a server-side sweep looks for. /status/NNN answers with status NNN, /basic-auth/USER/PASSWORD 401 unless the request carries those credentials. Prints its URL, then one line a second with the request rate. Every answer carries an X-Poolsize-Server header naming threads (and workers), CPU and delay, so a sweep can tell when the server is the limit. Stops on Ctrl-C or SIGTERM, or after --duration."
    )

    @Option(help: "Address to listen on; the default keeps it on this machine.")
    var host: String = "127.0.0.1"

    @Option(help: "Port, 1 to 65535, or 0 for a free one (printed).")
    var port: Int = 8080

    @Option(help: "CPU burnt per request on the serving thread (a worker, with --workers), e.g. 1ms (0 for none).")
    var cpu: String = "0ms"

    @Option(
        help:
            "Wait before answering, e.g. 10ms: a timer holding no thread, or with --workers a sleep holding the worker."
    )
    var delay: String = "0ms"

    @Option(help: "none, or exponential: each request's CPU and delay are drawn with those means.")
    var jitter: ServeJitter = .none

    @Option(help: "Threads serving requests (SwiftNIO event loops), 1 to 1024 (default: the cores).")
    var threads: Int?

    @Option(
        help:
            "Serve each request on one of this many worker threads, 1 to 1024, that holds its thread through --delay (thread-per-request; requests beyond them wait in a FIFO). Default: none, the event loops serve."
    )
    var workers: Int?

    @Option(help: "Stop by itself after this long, e.g. 30s (default: run until Ctrl-C or SIGTERM).")
    var duration: String?

    @Flag(help: "No rate line each second.")
    var quiet = false

    func run() throws {
        let settings = try makeSettings()
        // Listening for Ctrl-C and SIGTERM before the URL is printed: a script may stop the
        // server as soon as it has read it.
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "poolsize.serve")
        let signals = SignalWatch { _ in done.signal() }
        defer { signals.cancel() }
        let server: LoadServer
        do {
            server = try LoadServer(
                host: settings.host, port: port, threads: settings.threads, workers: settings.workers,
                behaviour: settings.behaviour)
        } catch {
            throw Self.listenError(error, host: settings.host, port: port)
        }
        let serving =
            settings.workers.map {
                "\($0) worker thread(s), each held through its request's delay, fed by \(settings.threads) event loop(s)"
            } ?? "\(settings.threads) thread(s)"
        say(
            "poolsize serve: listening on \(server.url) with \(serving); per request \(UnitFormat.duration(microseconds: settings.behaviour.cpuMicroseconds)) CPU, \(UnitFormat.duration(microseconds: settings.behaviour.delayMicroseconds)) delay, jitter \(jitter.rawValue); Ctrl-C stops it"
        )
        let meter = RateMeter(counters: server.counters, quiet: quiet, workers: settings.workers)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { meter.tick() }
        timer.resume()
        if let seconds = settings.duration {
            queue.asyncAfter(deadline: .now() + seconds) { done.signal() }
        }
        done.wait()
        timer.cancel()
        server.stop()
        let answered = server.counters.answered.load(ordering: .relaxed),
            failed = server.counters.failed.load(ordering: .relaxed)
        say(
            "poolsize serve: stopped after \(answered) answered and \(failed) failed request(s) on \(server.counters.accepted.load(ordering: .relaxed)) connection(s)"
        )
    }

    /// The checked flags.
    struct Settings {
        /// The address to bind, without the brackets an IPv6 address may be given in.
        var host: String
        var behaviour: LoadServer.Behaviour
        var threads: Int
        /// The thread-per-request pool's size, or nil to serve on the event loops.
        var workers: Int?
        var duration: Double?
    }

    func makeSettings() throws(PoolSizeError) -> Settings {
        try (0...65535).check(port, flag: "--port", hint: "0 picks a free port")
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidOption(flag: "--host", message: "is empty; give an address such as 127.0.0.1")
        }
        // Checked as a URL's host is: 999.1.1.1 was looked up as a name, failed, and blamed --port.
        let bracketed = host.hasPrefix("[") || !host.contains(":") ? host : "[\(host)]"
        if let problem = HTTPTarget.hostProblem(bracketed[...]) {
            throw .invalidOption(
                flag: "--host",
                message: "'\(host)' \(problem); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0")
        }
        let cpuSeconds = try QuantityParser.seconds(cpu, flag: "--cpu")
        guard cpuSeconds >= 0 && cpuSeconds <= 60 else {
            throw .invalidOption(flag: "--cpu", message: "must be 0 to 60s, got \(cpu)")
        }
        let delaySeconds = try QuantityParser.seconds(delay, flag: "--delay")
        guard delaySeconds >= 0 && delaySeconds <= 600 else {
            throw .invalidOption(flag: "--delay", message: "must be 0 to 10min, got \(delay)")
        }
        let threadCount = threads ?? MachineProbe.coreCount().effective
        try (1...1024).check(threadCount, flag: "--threads")
        if let workers, !(1...1024).contains(workers) {
            throw .invalidOption(
                flag: "--workers",
                message: "must be 1 to 1024, got \(workers); leave it out to serve on the event loops")
        }
        var seconds: Double? = nil
        if let duration {
            seconds = try QuantityParser.seconds(duration, flag: "--duration")
            guard seconds! > 0 && seconds! <= 86_400 else {
                throw .invalidOption(
                    flag: "--duration", message: "must be more than 0 and at most 24h, got \(duration)")
            }
        }
        let address = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return Settings(
            host: address,
            behaviour: .init(
                cpuMicroseconds: cpuSeconds * 1e6, delayMicroseconds: delaySeconds * 1e6,
                exponential: jitter == .exponential),
            threads: threadCount, workers: workers, duration: seconds)
    }

    /// A failure to listen is the address's, not a file's: it names the flag to change.
    static func listenError(_ error: any Error, host: String, port: Int) -> PoolSizeError {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let failure = error as? LoadServer.ListenFailure
        if failure?.part == .host {
            return .invalidOption(
                flag: "--host",
                message:
                    "cannot listen on \(address) (\(failure!.reason)); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0"
            )
        }
        let reason =
            failure?.reason ?? String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init)
            ?? "unknown error"
        return .invalidOption(
            flag: "--port", message: "cannot listen on \(address) (\(reason)); choose another port (0 picks a free one)"
        )
    }
}

/// `serve --jitter`.
enum ServeJitter: String, CaseIterable, ExpressibleByArgument {
    /// Every request costs exactly --cpu and --delay.
    case none
    /// Each request's CPU and delay are exponential draws with those means.
    case exponential
}

/// Prints one line a second: the rates since the last line and the connections open (and,
/// with workers, the requests waiting for one).
final class RateMeter: @unchecked Sendable {
    let counters: ServerCounters
    let quiet: Bool
    /// The worker pool's size, or nil when the event loops serve.
    let workers: Int?
    private var last = (answered: 0, failed: 0)
    private var seconds = 0

    init(counters: ServerCounters, quiet: Bool, workers: Int? = nil) {
        self.counters = counters
        self.quiet = quiet
        self.workers = workers
    }

    /// Called on one queue only, once a second.
    func tick() {
        seconds += 1
        let answered = counters.answered.load(ordering: .relaxed), failed = counters.failed.load(ordering: .relaxed)
        defer { last = (answered, failed) }
        guard !quiet else { return }
        say(
            "t=\(seconds)s  \(answered - last.answered) req/s  \(failed - last.failed) failed/s  \(counters.open.load(ordering: .relaxed)) open connection(s)"
                + (workers.map {
                    "  \(counters.busyWorkers.load(ordering: .relaxed)) of \($0) worker(s) busy  \(counters.queued.load(ordering: .relaxed)) waiting"
                } ?? "")
        )
    }
}

/// One line on stdout, written at once (stdout is block-buffered when it is a pipe, and a
/// script waiting for the URL line must not wait for a buffer to fill).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
