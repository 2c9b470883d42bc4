import ArgumentParser
import Foundation
import PoolSize
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// What each task of a sweep is: a built-in workload or spec, a trace, a command or an HTTP
/// request. `resolve` checks these flags and reads their files once.
struct SweepWorkloadOptions: ParsableArguments {
    @Option(help: "Built-in workload (cpu, io, mixed, file-io) or a path to a YAML spec file (default: io).")
    var workload: String?

    @Option(help: ArgumentHelp(Help.exec, valueName: "COMMAND"))
    var exec: String?

    @Option(help: ArgumentHelp(Help.http, valueName: "URL"))
    var http: String?

    @Option(name: .customLong("http-method"), help: "With --http: the request method.")
    var httpMethod: String = "GET"

    @Option(
        name: .customLong("http-body"),
        help: ArgumentHelp("With --http: send this file's bytes as every request's body.", valueName: "FILE"),
        completion: .file())
    var httpBody: String?

    @Option(name: .customLong("http-header"), help: ArgumentHelp(Help.header, valueName: "HEADER"))
    var httpHeaders: [String] = []

    @Option(name: .customLong("http-secret-header"), help: ArgumentHelp(Help.secretHeader, valueName: "NAME"))
    var httpSecretHeaders: [String] = []

    @Option(name: .customLong("http-secret-query"), help: ArgumentHelp(Help.secretQuery, valueName: "NAME"))
    var httpSecretQuery: [String] = []

    @Option(name: .customLong("http-cacert"), help: ArgumentHelp(Help.caCert, valueName: "FILE"), completion: .file())
    var httpCACert: String?

    @Flag(
        name: .customLong("http-insecure"),
        help: "With an https:// --http URL: do not verify the server's certificate or host name.")
    var httpInsecure = false

    @Option(name: .customLong("task-timeout"), help: ArgumentHelp(Help.taskTimeout))
    var taskTimeout: String = "60s"

    @Option(
        name: .customLong("exec-output"), help: ArgumentHelp(Help.execOutput, valueName: "DIR"),
        completion: .directory)
    var execOutput: String?

    @Option(name: .customLong("exec-baseline"), help: ArgumentHelp(Help.execBaseline, valueName: "COMMAND"))
    var execBaseline: String?

    @Option(help: ArgumentHelp(Help.scratch, valueName: "DIR"), completion: .directory)
    var scratch: String?

    @Option(help: ArgumentHelp(Help.trace, valueName: "FILE.csv"), completion: .file(extensions: ["csv"]))
    var trace: String?

    /// The workload these flags name, checked, with its files read and its source made: the
    /// only place a trace, a spec, a body file or a command is read.
    func resolve(trialMilliseconds: Int?) throws(PoolSizeError) -> SweepWorkload {
        try checkCombinations()
        let trialMilliseconds = trialMilliseconds ?? 1000
        if let http {
            let target = try httpTarget(http)
            let verification = try httpVerification(target)
            let source = try HTTPSource(
                target: target, timeoutSeconds: try taskTimeoutSeconds(), verification: verification)
            let name = "http-" + String(target.host.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            let spec = WorkloadSpec(
                name: name, description: "HTTP: \(target.display)", cpuMicroseconds: 0, waitMicroseconds: 0,
                trialMilliseconds: trialMilliseconds)
            return SweepWorkload(
                spec: spec, run: .source(source), isLoopbackServer: target.isLoopback,
                taskTimeoutSeconds: source.timeoutSeconds)
        }
        if let exec {
            var output: URL? = nil
            if let execOutput {
                output = URL(fileURLWithPath: execOutput)
                try AtomicFile.checkWritable(output!, flag: "--exec-output")
            }
            let source = try CommandSource(
                arguments: ShellWords.split(exec), timeoutSeconds: try taskTimeoutSeconds(), outputDirectory: output,
                reapsOrphans: true,
                baseline: try execBaseline.map { command throws(PoolSizeError) in
                    try ShellWords.split(command, parameter: .commandBaseline)
                })
            let spec = WorkloadSpec(
                name: "exec-" + URL(fileURLWithPath: source.arguments[0]).lastPathComponent,
                description:
                    "command: \(Secrets.commandText(exec.split(whereSeparator: \.isNewline).joined(separator: " ")))",
                cpuMicroseconds: 0, waitMicroseconds: 0, trialMilliseconds: trialMilliseconds)
            return SweepWorkload(
                spec: spec, run: .source(source), isLoopbackServer: false, taskTimeoutSeconds: source.timeoutSeconds)
        }
        if let trace {
            let loaded = try Trace.load(path: trace)
            return SweepWorkload(
                spec: loaded.spec(trialMilliseconds: trialMilliseconds), run: .trace(loaded), isLoopbackServer: false)
        }
        let spec = try WorkloadLoader.load(workload ?? "io")
        return SweepWorkload(
            spec: spec, run: .spec(scratch: scratch.map { URL(fileURLWithPath: $0) }), isLoopbackServer: false)
    }

    /// Flags that belong to another kind of task, or two kinds of task at once.
    private func checkCombinations() throws(PoolSizeError) {
        if exec == nil && http == nil {
            let httpFlags = [
                ("--http-method", httpMethod != "GET"), ("--http-body", httpBody != nil),
                ("--http-header", !httpHeaders.isEmpty), ("--http-secret-header", !httpSecretHeaders.isEmpty),
                ("--http-secret-query", !httpSecretQuery.isEmpty),
                ("--http-cacert", httpCACert != nil), ("--http-insecure", httpInsecure),
            ]
            for (flag, given) in httpFlags where given {
                throw .invalidOption(flag: flag, message: "applies to --http requests; add --http URL or drop \(flag)")
            }
            if taskTimeout != "60s" {
                throw .invalidOption(
                    flag: "--task-timeout",
                    message:
                        "applies to --exec, --http and --postgres tasks; add one of them or drop --task-timeout")
            }
        }
        if exec == nil, execBaseline != nil {
            throw .invalidOption(
                flag: "--exec-baseline",
                message:
                    "measures the start of the --exec command's program; add --exec COMMAND or drop --exec-baseline")
        }
        if exec == nil, execOutput != nil {
            throw .invalidOption(
                flag: "--exec-output",
                message: "keeps the output of --exec commands; add --exec COMMAND or drop --exec-output")
        }
        if http != nil, workload != nil || trace != nil || exec != nil {
            throw .invalidOption(flag: "--http", message: "replaces --workload, --trace and --exec; give one of them")
        }
        if exec != nil, workload != nil || trace != nil {
            throw .invalidOption(flag: "--exec", message: "replaces --workload and --trace; give one of them")
        }
        if trace != nil, workload != nil {
            throw .invalidOption(flag: "--trace", message: "replaces --workload; give one of them")
        }
    }

    /// `--task-timeout`, checked: libcurl's timeouts count whole milliseconds, and no command
    /// starts in less.
    func taskTimeoutSeconds() throws(PoolSizeError) -> Double {
        let timeout = try QuantityParser.seconds(taskTimeout, flag: "--task-timeout")
        guard timeout >= 0.001 && timeout <= 3600 else {
            throw .invalidOption(flag: "--task-timeout", message: "must be 1ms to 1h, got \(taskTimeout)")
        }
        return timeout
    }

    /// The `--http` request, checked, with `--http-body` read.
    private func httpTarget(_ url: String) throws(PoolSizeError) -> HTTPTarget {
        try HTTPTarget(
            url: url, method: httpMethod, headers: httpHeaders, body: try httpBodyData(),
            secretQuery: Set(httpSecretQuery))
    }

    /// `--http-body`'s bytes, read once; nil without it.
    func httpBodyData() throws(PoolSizeError) -> Data? {
        var body: Data? = nil
        if let httpBody {
            guard FileManager.default.fileExists(atPath: httpBody) else {
                throw .inputNotFound(
                    path: httpBody, hint: "--http-body takes a file whose bytes are sent as the request body")
            }
            do { body = try Data(contentsOf: URL(fileURLWithPath: httpBody)) } catch {
                throw .invalidInput(
                    path: httpBody,
                    message: "cannot be read (\(error.localizedDescription)); --http-body takes a readable file")
            }
        }
        return body
    }

    /// How `--http-cacert` and `--http-insecure` say to check an https:// server.
    private func httpVerification(_ target: HTTPTarget) throws(PoolSizeError) -> HTTPVerification {
        let flag = httpCACert != nil ? "--http-cacert" : httpInsecure ? "--http-insecure" : nil
        guard let flag else { return .system }
        guard target.url.lowercased().hasPrefix("https://") else {
            throw .invalidOption(
                flag: flag,
                message:
                    "applies to https:// URLs, and --http is '\(target.redactedURL)'; drop \(flag) or use https://"
            )
        }
        if httpCACert != nil && httpInsecure {
            throw .invalidOption(
                flag: "--http-insecure", message: "skips the verification --http-cacert asks for; give one of them")
        }
        guard let httpCACert else { return .none }
        // Read now: libcurl reads it only as each handle connects, and a bad file failed every request.
        try CACertificateFile.check(path: httpCACert)
        // Absolute: libcurl reads it when each handle connects, whatever the directory then.
        return .certificateAuthorities(path: URL(fileURLWithPath: httpCACert).standardizedFileURL.path)
    }

    /// The longer help texts, kept out of the declarations.
    private enum Help {
        static let exec = """
            A command to run as each task, split into words as a shell would but run without one \
            (write sh -c '…' for shell syntax); stdin is /dev/null. C is its CPU and the pool thread's, W the rest \
            of its wall time; a non-zero exit, a signal or a timeout is a failed task. The xargs -P / make -j \
            question, answered with a curve.
            """
        static let http = """
            An HTTP endpoint to call as each task: one blocking request from the pool's own thread (libcurl), over \
            a connection each worker keeps. C is that thread's CPU, W the rest of the request's time; a status of \
            400 or more, a redirect (not followed), a connection or certificate error or a timeout is a failed \
            task. 'poolsize serve' is a local target to try it on.
            """
        static let header = """
            With --http: a request header, 'Name: value'; repeat for several. Values of credential headers \
            (Authorization, Cookie, API keys) are sent but never written.
            """
        static let secretQuery = """
            With --http: a URL query parameter whose value is a credential, beyond the known ones (api_key, key, \
            token, access_token, signature, password…); it is sent but written nowhere. Repeat for several.
            """
        static let secretHeader = """
            With --http: a header name whose value is a credential, beyond the known ones; it is sent but written \
            nowhere. Repeat for several.
            """
        static let caCert = """
            With an https:// --http URL: verify the server against the CA certificates in this PEM file instead of \
            the system's (a private or self-signed CA).
            """
        static let taskTimeout = """
            With --exec or --http: a task running longer is stopped (a command gets SIGTERM, then SIGKILL) and \
            counted as failed. With --postgres: the server's statement_timeout on each connection, so a statement \
            running longer is cancelled (SQLSTATE 57014) and its task counted as failed.
            """
        static let execOutput = """
            With --exec: keep each task's stdout and stderr in DIR (task-N.out, task-N.err) instead of discarding \
            them.
            """
        static let execBaseline = """
            With --exec: a command that starts the same program with its work left out (psql … -c 'SELECT 1', \
            python3 -c pass), run 5 times after the low-load phase; the report says how much of each task's CPU \
            is that start-up. Without it only the dynamic loader's start is measured.
            """
        static let scratch = """
            For a workload with file IO (file-io): where its scratch files go (default: a temporary directory, \
            removed at the end).
            """
        static let trace = """
            A recorded trace to replay instead of a synthetic workload: a CSV with a header naming cpu_us and \
            wait_us (microseconds per request; other columns are ignored). Tasks draw rows, seeded.
            """
    }
}
