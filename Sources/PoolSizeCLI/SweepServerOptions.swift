import ArgumentParser
import Foundation
import PoolSize
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// `--server`: the pool sized is the one inside the user's server, started with each size and
/// loaded at the `--http` URL by the event-driven driver. `resolve` checks these flags against
/// the others and builds what runs the trials.
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

    /// The most requests a server sweep keeps in flight by default.
    static let defaultConnectionsFloor = 64

    /// The server sweep these flags ask for (or the load tool's alone, `--load` without
    /// `--server`), or nil without either; `workload` gives the
    /// URL and the request, `axes` and `load` must be left as they are.
    func resolve(
        workload: SweepWorkloadOptions, axes: SweepAxisOptions, load: SweepLoadOptions, sizes: String?,
        trialMilliseconds: Int?, cores: Int
    ) throws(PoolSizeError) -> SweepWorkload? {
        guard let server else {
            if let tool = self.load {
                return try resolveLoadAlone(
                    tool, workload: workload, axes: axes, load: load, trialMilliseconds: trialMilliseconds)
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
        let command = try ServerCommand(server, allowsNoSize: resize != nil)
        var sizing = ServerSizing.restart
        var resizing: (command: ServerCommand, settleSeconds: Double)? = nil
        if let resize {
            let resizeCommand = try ServerCommand(resize: resize)
            if resizeCommand.usesPort && !command.usesPort {
                throw .invalidOption(
                    flag: "--resize",
                    message: "has {port}, but --server has none; add {port} to both, or write the server's own port")
            }
            // Found now, not after the server has started.
            _ = try ServerProcess.resolve(
                resizeCommand.words[0], path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                parameter: .resize)
            let settleSeconds = try QuantityParser.seconds(settle ?? "2s", flag: "--settle")
            guard settleSeconds >= 0 && settleSeconds <= 600 else {
                throw .invalidOption(flag: "--settle", message: "must be 0s to 10m, got \(settle ?? "")")
            }
            resizing = (resizeCommand, settleSeconds)
            sizing = .resize(command: Secrets.commandText(resizeCommand.display), settleSeconds: settleSeconds)
        } else if settle != nil {
            throw .invalidOption(
                flag: "--settle", message: "applies to --resize; add --resize COMMAND or drop --settle")
        }
        let secretQuery = Set(workload.httpSecretQuery)
        let url = try ServerURL(http, server: command, secretQuery: secretQuery)
        let timeout = try QuantityParser.seconds(readyTimeout, flag: "--ready-timeout")
        guard timeout >= 0.1 && timeout <= 3600 else {
            throw .invalidOption(flag: "--ready-timeout", message: "must be 100ms to 1h, got \(readyTimeout)")
        }
        var connections = Self.defaultConnectionsFloor
        if let given = self.connections {
            connections = given
        } else {
            connections = try Self.defaultConnections(sizes: sizes, cores: cores, load: try load.resolve())
        }
        if self.load != nil && self.connections != nil {
            throw .invalidOption(
                flag: "--connections",
                message: "sets poolsize's driver, which --load replaces; set the connections in the tool's command")
        }
        guard (1...HTTPLoadDriver.connectionLimit).contains(connections) else {
            throw .invalidOption(
                flag: "--connections",
                message: "must be 1 to \(HTTPLoadDriver.connectionLimit) requests in flight, got \(connections)")
        }
        // The run's driver refuses connections past the descriptor limit: so does its dry run.
        if self.load == nil { try HTTPLoadDriver.checkDescriptors(for: connections) }
        // A trial of more threads than requests in flight measures the driver, and is invalid:
        // refused before any runs when the sizes are listed (`auto`'s are found while measuring).
        if self.load == nil, let sizes, case let .explicit(list) = try SizeSelection.parse(sizes),
            let largest = (list + RuleSet.threadPool(cores: cores).sizes).max(),
            largest > connections
        {
            throw .invalidOption(
                flag: "--connections",
                message:
                    "keeps \(connections) request\(connections == 1 ? "" : "s") in flight, fewer than the largest size \(largest) (the listed sizes and the rules of thumb's), whose trial the driver, not the server, would limit; pass --connections \(largest) or more (the default is twice the largest size)"
            )
        }
        let method = workload.httpMethod, headers = workload.httpHeaders
        let body = try workload.httpBodyData()
        let makeTarget: @Sendable (String) throws(PoolSizeError) -> HTTPTarget = { url throws(PoolSizeError) in
            try HTTPTarget(url: url, method: method, headers: headers, body: body, secretQuery: secretQuery)
        }
        let shown = try makeTarget(url.url(port: url.usesPort ? ServerURL.checkedPort : nil))
        // The server's figures (its CPU, threads, memory) and its stop are read and sent on
        // this machine: a server elsewhere would be measured through its ssh or kubectl client.
        guard shown.isLoopback else {
            throw .invalidOption(
                flag: "--http",
                message:
                    "a server sweep loads a server on this machine (127.0.0.1, ::1 or localhost), whose processes it measures; run poolsize on the server's host"
            )
        }
        let redacted = shown.redactedURL.replacingOccurrences(of: ":\(ServerURL.checkedPort)", with: ":{port}")
        var loadTool: (command: LoadCommand, parser: LoadToolParser, timeoutSeconds: Double)? = nil
        if let load = self.load {
            guard !parse.isEmpty else {
                throw .invalidOption(
                    flag: "--parse",
                    message:
                        "is needed with --load to read the tool's figures: wrk, pgbench, or a regular expression with a (?<throughput>…) group"
                )
            }
            loadTool = (
                try LoadCommand(load, requiresSize: false), try LoadToolParser(parse),
                try workload.taskTimeoutSeconds()
            )
            // Its program is found now (the measurer resolves it again for each trial's port).
            _ = try LoadToolMeasurer(
                command: loadTool!.command, parser: loadTool!.parser, timeoutSeconds: loadTool!.timeoutSeconds,
                port: ServerURL.checkedPort)
            if loadTool!.command.usesPort && !command.usesPort {
                throw .invalidOption(
                    flag: "--load",
                    message: "has {port}, but --server has none; add {port} to both, or write the server's own port")
            }
            // The server listens on a port poolsize picks at each start: a tool aimed at a port
            // of its own loads some other server, whose figures would be taken for this one's.
            if command.usesPort && !loadTool!.command.usesPort {
                throw .invalidOption(
                    flag: "--load",
                    message:
                        "has no {port}, but --server listens on the port poolsize picks, so the tool would load another server; write {port} where the tool takes the server's address, e.g. wrk http://127.0.0.1:{port}/"
                )
            }
        } else if !parse.isEmpty {
            throw .invalidOption(flag: "--parse", message: "reads --load's output; add --load COMMAND or drop --parse")
        }
        let measurer = ServerTrialMeasurer(
            command: command, url: url, connections: connections, readyTimeoutSeconds: timeout,
            requestTimeoutSeconds: try workload.taskTimeoutSeconds(), resize: resizing, loadTool: loadTool,
            makeTarget: makeTarget)
        let program = URL(fileURLWithPath: command.words[0]).lastPathComponent
        let spec = WorkloadSpec(
            name: "server-" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "server: \(Secrets.commandText(command.display)) at \(method) \(redacted)", cpuMicroseconds: 0,
            waitMicroseconds: 0, trialMilliseconds: trialMilliseconds ?? 2000)
        var setup = ServerSetup(
            command: Secrets.commandText(command.display), url: redacted, connections: connections,
            readyTimeoutSeconds: timeout,
            sizing: sizing)
        if let loadTool {
            setup.loadTool = Secrets.commandText(([loadTool.command.display] + parse).joined(separator: " --parse "))
        }
        return SweepWorkload(
            spec: spec, run: .external(measurer), isLoopbackServer: false,
            taskTimeoutSeconds: try workload.taskTimeoutSeconds(), target: .server(setup))
    }

    /// Enough requests in flight that the server, not the driver, limits the largest size:
    /// twice the largest listed size, at least 64 (`auto`'s sizes are not known before the
    /// sweep measures W/C).
    static func defaultConnections(sizes: String?, cores: Int) throws(PoolSizeError) -> Int {
        let rules = RuleSet.threadPool(cores: cores).sizes.max() ?? 1
        guard let sizes, case let .explicit(list) = try SizeSelection.parse(sizes) else {
            return max(defaultConnectionsFloor, 2 * rules)
        }
        return max(defaultConnectionsFloor, 2 * max(list.max() ?? 1, rules))
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
        let axisFlags = [
            ("--pool", axes.pool != nil), ("--qos", axes.qos != "default"),
            ("--primitive", axes.primitive != "none"), ("--critical-us", axes.criticalMicroseconds != nil),
            ("--contend", axes.contend),
        ]
        for (flag, given) in axisFlags where given {
            throw .invalidOption(
                flag: flag, message: "sets poolsize's own pools; a server sweep sizes the server's pool: drop \(flag)")
        }
        if load.arrivalRate != nil && self.load != nil {
            throw .invalidOption(
                flag: "--arrival-rate",
                message:
                    "paces poolsize's own driver, and --load's tool makes its own load, which poolsize cannot pace; drop --load or --arrival-rate"
            )
        }
    }

    private enum Help {
        static let server = """
            Size the pool inside your own server: the command that starts it, with {size} where it takes its pool \
            size and {port} where it takes a port (poolsize picks a free one), each inside one word \
            ('--threads={size}'). It is started at each size, run as words without a shell (write sh -c '…' for \
            one), loaded at the --http URL once it answers with a 2xx, and stopped (SIGTERM to its process group \
            and session, SIGKILL after 5 s).
            """
        static let resize = """
            With --server: a command that sets the running server's pool to {size} instead of restarting it \
            (gunicorn's TTIN/TTOU signals, an admin endpoint, JMX, kubectl scale); {pid} is the server's process \
            id, {port} its port. The server is started once, without {size}; the command must exit 0.
            """
        static let settle = """
            With --resize: how long the server is given after each resize before it is measured (default 2s).
            """
        static let load = """
            Your own load tool run once per trial (wrk, k6, ab, pgbench), as words without a shell; {size} is the \
            trial's size. With --server it replaces poolsize's driver: {port} is the server's port, and --http is \
            still the URL that says the server is ready. Alone, {size} is the tool's own concurrency (pgbench -c \
            {size} sizes a connection pool) and must be there. --task-timeout bounds each run.
            """
        static let parse = """
            With --load: how to read its figures: wrk, pgbench, or a regular expression with named groups \
            (throughput, p50, p90, p99, p999, max, mean, errors, requests, duration; a latency as 1.2ms, 450us, 2s); \
            repeat for several. A run that exits non-zero or prints no throughput is an invalid trial.
            """
        static let connections = """
            With --server: requests kept in flight by the load driver (one thread, one connection each). Default: \
            twice the largest size, at least 64; with --arrival-rate also the top rate × twice --latency-slo, \
            at most 10000. Fewer than the largest of --sizes is refused; a closed-loop trial whose size exceeds it \
            (an auto size) is invalid (the driver was the limit), and so is an open-loop one in which arrivals \
            waited for a connection in the driver with fewer than that.
            """
        static let readyTimeout = """
            With --server: how long a started server may take to answer the URL with a 2xx (e.g. 30s).
            """
    }
}
