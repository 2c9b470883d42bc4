import ArgumentParser
import Foundation
import PoolSize
import PoolSizeKit
import PoolSizeModel

/// `--server`: the pool sized is the one inside the user's server, started with each size and
/// loaded at the `--http` URL by the event-driven driver. `target` checks these flags against
/// the others and writes them as the library's target.
struct SweepServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.server, valueName: "COMMAND"))
    var server: String?

    @Option(help: ArgumentHelp(Help.resize, valueName: "COMMAND"))
    var resize: String?

    @Option(help: ArgumentHelp(Help.settle, valueName: "DURATION"))
    var settle: String?

    @Option(help: ArgumentHelp(Help.load, valueName: "COMMAND"))
    var load: String?

    @Option(help: ArgumentHelp(Help.parse, valueName: "PATTERN"))
    var parse: [String] = []

    @Option(help: ArgumentHelp(Help.connections, valueName: "M"))
    var connections: Int?

    @Option(name: .customLong("ready-timeout"), help: ArgumentHelp(Help.readyTimeout, valueName: "DURATION"))
    var readyTimeout: String = "30s"

    @Option(name: .customLong("stop-signal"), help: ArgumentHelp(Help.stopSignal, valueName: "SIGNAL"))
    var stopSignal: String?

    /// The server sweep these flags ask for (or the load tool's alone, `--load` without
    /// `--server`), or nil without either; `workload` gives the URL and the request, `axes`
    /// and `load` must be left as they are. Only the flags are checked here, each against the
    /// others; the library checks the commands, the URL and the load (`ServerTask.prepare`).
    func target(
        workload: SweepWorkloadOptions, axes: SweepAxisOptions, load: SweepLoadOptions
    ) throws(PoolSizeError) -> Sweep.Target? {
        guard let server else {
            if let tool = self.load {
                return try loadAloneTarget(tool, workload: workload, axes: axes, load: load)
            }
            let serverFlags = [
                ("--resize", resize != nil), ("--settle", settle != nil), ("--load", self.load != nil),
                ("--parse", !parse.isEmpty),
            ]
            for (flag, given) in serverFlags where given {
                throw .invalidOption(
                    flag: flag, message: "applies to a server sweep; add --server COMMAND or drop \(flag)")
            }
            if connections != nil {
                throw .invalidOption(
                    flag: "--connections", message: "sets the server sweep's load; add --server COMMAND or drop it")
            }
            if readyTimeout != "30s" {
                throw .invalidOption(
                    flag: "--ready-timeout", message: "applies to a server sweep; add --server COMMAND or drop it")
            }
            if stopSignal != nil {
                throw .invalidOption(
                    flag: "--stop-signal", message: "applies to a server sweep; add --server COMMAND or drop it")
            }
            return nil
        }
        try checkCombinations(workload: workload, axes: axes, load: load)
        guard let http = workload.http else {
            throw .invalidOption(
                flag: "--server",
                message:
                    "needs the URL to load: add --http 'http://127.0.0.1:{port}/path' (with {port} when the command has it)"
            )
        }
        var task = ServerTask(command: server, request: workload.request(url: http))
        task.resize = resize
        if let settle {
            guard resize != nil else {
                throw .invalidOption(
                    flag: "--settle", message: "applies to --resize; add --resize COMMAND or drop --settle")
            }
            let seconds = try QuantityParser.seconds(settle, flag: "--settle")
            guard seconds >= 0 && seconds <= 600 else {
                throw .invalidOption(flag: "--settle", message: "must be 0s to 10m, got \(settle)")
            }
            task.settleSeconds = seconds
        }
        let timeout = try QuantityParser.seconds(readyTimeout, flag: "--ready-timeout")
        guard timeout >= 0.1 && timeout <= 3600 else {
            throw .invalidOption(flag: "--ready-timeout", message: "must be 100ms to 1h, got \(readyTimeout)")
        }
        task.readyTimeoutSeconds = timeout
        task.stopSignal = stopSignal
        if self.load != nil && connections != nil {
            throw .invalidOption(
                flag: "--connections",
                message: "sets poolsize's driver, which --load replaces; set the connections in the tool's command")
        }
        task.connections = connections
        if let tool = self.load {
            task.loadTool = LoadToolTask(command: tool, parse: parse)
        } else if !parse.isEmpty {
            throw .invalidOption(flag: "--parse", message: "reads --load's output; add --load COMMAND or drop --parse")
        }
        var target = Sweep.Target(.server(task))
        target.taskTimeoutSeconds = try workload.taskTimeoutSeconds()
        return target
    }

    /// Flags that set what a server sweep decides itself: the pool (the server's), its axes and
    /// the loop.
    private func checkCombinations(
        workload: SweepWorkloadOptions, axes: SweepAxisOptions, load: SweepLoadOptions
    ) throws(PoolSizeError) {
        let replaced = [
            ("--exec", workload.exec != nil), ("--workload", workload.workload != nil),
            ("--trace", workload.trace != nil),
        ]
        for (flag, given) in replaced where given {
            throw .invalidOption(flag: flag, message: "a server sweep's tasks are --http requests; drop \(flag)")
        }
        for (flag, given) in [
            ("--http-cacert", workload.httpCACert != nil), ("--http-insecure", workload.httpInsecure),
        ]
        where given {
            throw .invalidOption(
                flag: flag,
                message: "a server sweep checks an https:// server against the system's CAs only; drop \(flag)")
        }
        for (flag, given) in axes.ownPoolFlags where given {
            throw .invalidOption(
                flag: flag, message: "sets poolsize's own pools; a server sweep sizes the server's pool: drop \(flag)")
        }
    }

    private enum Help {
        static let server = """
            Size the pool inside your own server: the command that starts it, with {size} where it takes its pool \
            size and {port} where it takes a port (poolsize picks a free one), each inside one word \
            ('--threads={size}'). It is started at each size, run as words without a shell (write sh -c '…' for \
            one), loaded at the --http URL once it answers with a 2xx, and stopped (SIGTERM, or --stop-signal's, \
            to its process group and session, SIGKILL after 5 s).
            """
        static let resize = """
            With --server: a command that sets the running server's pool to {size} instead of restarting it \
            (gunicorn's TTIN/TTOU signals, an admin endpoint, JMX, kubectl scale); {pid} is the server's process \
            id, {port} its port. The server is started once, without {size}; the command must exit 0. Or signals: \
            SIGTTIN/SIGTTOU sent to the server's process until it has {size} children, counted in /proc (gunicorn's \
            arbiter, Puma's cluster master).
            """
        static let settle = """
            With --resize: how long the server is given after each resize before it is measured (default 2s; \
            0s with --resize signals, whose workers are counted).
            """
        static let load = """
            Your own load tool run once per trial (wrk, k6, ab, pgbench), as words without a shell; {size} is the \
            trial's size. With --server it replaces poolsize's driver: {port} is the server's port, and --http is \
            still the URL that says the server is ready; with --arrival-rate, {rate} is the trial's rate in requests \
            a second (k6 -e RATE={rate} with Examples/load/k6-rate.js). Alone, {size} is the tool's own concurrency \
            (pgbench -c {size} sizes a connection pool) and must be there. --task-timeout bounds each run.
            """
        static let parse = """
            With --load: how to read its figures: wrk, pgbench, locust, k6, or a regular expression with named groups \
            (throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency; a latency \
            as 1.2ms, 450us, 2s); \
            repeat for several. A run that exits non-zero or prints no throughput is an invalid trial.
            """
        static let connections = """
            With --server: requests kept in flight by the load driver (one thread, one connection each). Default: \
            twice the largest size, at least 64; with --arrival-rate also the top rate × twice --latency-slo, \
            at most 10000. Fewer than the largest of --sizes is refused; a closed-loop trial whose size exceeds it \
            (an auto size) is invalid (the driver was the limit), and so is an open-loop one in which arrivals \
            waited for a connection in the driver with fewer than that.
            """
        static let stopSignal = """
            With --server: the signal that stops the server after each size and at the end: TERM (the default), \
            INT, QUIT, HUP, USR1, USR2 or KILL. gunicorn's quick stop is INT or QUIT, where TERM waits for its \
            gthread worker's poll; no request is in flight when a server is stopped. Whatever is left \
            after 5 s gets KILL.
            """
        static let readyTimeout = """
            With --server: how long a started server may take to answer the URL with a 2xx (e.g. 30s).
            """
    }
}
