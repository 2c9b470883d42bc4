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

    /// The target these flags name on poolsize's own pools: `--http`'s request, `--exec`'s
    /// command, `--trace`'s file or `--workload`'s spec (io by default). The library checks
    /// and builds it (`Sweep.Target.prepare`).
    func target() throws(PoolSizeError) -> Sweep.Target {
        try checkCombinations()
        var target: Sweep.Target
        if let http {
            target = Sweep.Target(.http(request(url: http)))
        } else if let exec {
            var task = CommandTask(command: exec)
            task.baseline = execBaseline
            if let execOutput {
                try AtomicFile.checkWritable(URL(fileURLWithPath: execOutput), flag: "--exec-output")
                task.outputDirectory = execOutput
            }
            target = Sweep.Target(.command(task))
        } else if let trace {
            target = Sweep.Target(.trace(trace))
        } else {
            target = Sweep.Target(.workload(workload ?? "io"))
            target.scratchDirectory = scratch
        }
        if http != nil || exec != nil { target.taskTimeoutSeconds = try taskTimeoutSeconds() }
        return target
    }

    /// `--http`'s request settings for `url`: the task's, or a server sweep's load.
    func request(url: String) -> RequestTask {
        var request = RequestTask(url: url)
        request.method = httpMethod
        request.headers = httpHeaders
        request.bodyPath = httpBody
        request.maskedHeaders = httpSecretHeaders
        request.maskedQuery = httpSecretQuery
        request.caCertificatePath = httpCACert
        request.insecure = httpInsecure
        return request
    }

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
