import ArgumentParser
import Foundation
import PoolSize
import PoolSizeAnalysis
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// `poolsize sweep`: parse → validate → plan → run → export (docs/conventions.md).
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a workload through real pools of many sizes and recommend a queue count.",
        discussion:
            "Writes trials.csv (row by row as trials finish), recommendation.json, machine.json and summary.txt to the run directory, and prints that directory on the last line."
    )

    @Option(help: "Built-in workload (cpu, io, mixed, file-io) or a path to a YAML spec file (default: io).")
    var workload: String?

    @Option(
        help: ArgumentHelp(
            "A command to run as each task, split into words as a shell would but run without one (write sh -c '…' for shell syntax); stdin is /dev/null. C is its CPU and the pool thread's, W the rest of its wall time; a non-zero exit, a signal or a timeout is a failed task. The xargs -P / make -j question, answered with a curve.",
            valueName: "COMMAND"))
    var exec: String?

    @Option(
        help: ArgumentHelp(
            "An HTTP endpoint to call as each task: one blocking request from the pool's own thread (libcurl), over a connection each worker keeps. C is that thread's CPU, W the rest of the request's time; a status of 400 or more, a redirect (not followed), a connection or certificate error or a timeout is a failed task. 'poolsize serve' is a local target to try it on.",
            valueName: "URL"))
    var http: String?

    @Option(name: .customLong("http-method"), help: "With --http: the request method.")
    var httpMethod: String = "GET"

    @Option(
        name: .customLong("http-body"),
        help: ArgumentHelp("With --http: send this file's bytes as every request's body.", valueName: "FILE"),
        completion: .file())
    var httpBody: String?

    @Option(
        name: .customLong("http-header"),
        help: ArgumentHelp(
            "With --http: a request header, 'Name: value'; repeat for several. Values of credential headers (Authorization, Cookie, API keys) are sent but never written.",
            valueName: "HEADER"))
    var httpHeaders: [String] = []
    @Option(
        name: .customLong("http-secret-header"),
        help: ArgumentHelp(
            "With --http: a header name whose value is a credential, beyond the known ones; it is sent but written nowhere. Repeat for several.",
            valueName: "NAME"))
    var httpSecretHeaders: [String] = []

    @Option(
        name: .customLong("http-cacert"),
        help: ArgumentHelp(
            "With an https:// --http URL: verify the server against the CA certificates in this PEM file instead of the system's (a private or self-signed CA).",
            valueName: "FILE"), completion: .file())
    var httpCACert: String?

    @Flag(
        name: .customLong("http-insecure"),
        help: "With an https:// --http URL: do not verify the server's certificate or host name.")
    var httpInsecure = false

    @Option(
        name: .customLong("task-timeout"),
        help:
            "With --exec or --http: a task running longer is stopped (a command gets SIGTERM, then SIGKILL) and counted as failed."
    )
    var taskTimeout: String = "60s"

    @Option(
        name: .customLong("exec-output"),
        help: ArgumentHelp(
            "With --exec: keep each task's stdout and stderr in DIR (task-N.out, task-N.err) instead of discarding them.",
            valueName: "DIR"), completion: .directory)
    var execOutput: String?

    @Option(
        help: ArgumentHelp(
            "For a workload with file IO (file-io): where its scratch files go (default: a temporary directory, removed at the end).",
            valueName: "DIR"), completion: .directory)
    var scratch: String?

    @Option(
        help: ArgumentHelp(
            "A recorded trace to replay instead of a synthetic workload: a CSV with a header naming cpu_us and wait_us (microseconds per request; other columns are ignored). Tasks draw rows, seeded.",
            valueName: "FILE.csv"), completion: .file(extensions: ["csv"]))
    var trace: String?

    @Option(help: "Pool sizes: auto, a list (1,2,4,8), a range (1...16) or a range with a step (8...64:8).")
    var sizes: String = "auto"

    @Option(
        help:
            "How sizes are chosen: adaptive (bracket the knee geometrically, then bisect until it is resolved to one size step; the default with --sizes auto) or grid (every size and repetition; the default with an explicit --sizes, within which adaptive searches)."
    )
    var search: SearchMode?

    @Option(
        help: ArgumentHelp(
            "With --sizes auto: choose repetitions and trial length so that the estimated sweep fits this long (e.g. 30s, 5m); refused when even the shortest sweep cannot.",
            valueName: "DURATION"))
    var budget: String?

    @Option(
        name: .customLong("arrival-rate"),
        help: ArgumentHelp(
            "Open loop: tasks arrive at this rate whatever the pool is doing, as requests reach a service (800/s, 48000/min), or at each rate of a range (200/s...2000/s:200). Latency counts from each task's intended arrival; per size the report gives the rate offered and carried, the percentiles, the backlog and whether the size keeps up.",
            valueName: "RATE"))
    var arrivalRate: String?

    @Option(
        help: "With --arrival-rate: how arrivals are spaced, poisson (exponential gaps, seeded) or uniform (evenly).")
    var arrivals: ArrivalProcess?

    @Option(
        name: .customLong("latency-slo"),
        help: ArgumentHelp(
            "With --arrival-rate: the latency objective (e.g. 40ms); the recommendation is the smallest size that keeps up and meets it at --slo-percentile. Exit 5 when no size does.",
            valueName: "DURATION"))
    var latencySLO: String?

    @Option(
        name: .customLong("slo-percentile"),
        help: "With --latency-slo: the percentile the objective applies to, one of 50, 90, 99, 99.9 (default 99).")
    var sloPercentile: String?

    @Option(
        help:
            "Pool kinds: all, or a list of queue-pool, thread-pool, global-queue, operation-queue, task-group, adaptive (N is its maximum)."
    )
    var pool: String = "queue-pool"

    @Option(
        help:
            "QoS tiers: all, or a list of user-interactive, user-initiated, default, utility, background (aliases high, low)."
    )
    var qos: String = "default"

    @Option(
        help: "Synchronization primitives guarding each task's critical section: all, or a list (see 'poolsize list').")
    var primitive: String = "none"

    @Option(name: .customLong("critical-us"), help: "Critical section length in µs (default: the spec's critical_us).")
    var criticalMicroseconds: Double?

    @Option(
        name: .customLong("read-ratio"),
        help: "Share of critical sections that only read, for barrier and rwlock, in [0, 1].")
    var readRatio: Double = 0.5

    @Flag(help: "Also run every selected tier at once on a CPU-saturating workload and report each tier's share.")
    var contend = false

    @Option(help: "Cores to size for, 1 to 4096 (default: min of the affinity mask and the cgroup CPU quota).")
    var cores: Int?

    @Option(name: .customLong("target-utilization"), help: "Target CPU utilization U, 0.05 to 1.")
    var targetUtilization: Double = 1.0

    @Option(help: "The knee is the smallest size within this share of peak throughput, in (0, 0.5).")
    var tolerance: Double = 0.05

    @Option(
        name: .customLong("repeat"),
        help:
            "Measured trials per pool size (per rate, with --arrival-rate), 1 to \(Self.maximumRepetitions) (default 3; 1 for a range of arrival rates)."
    )
    var repeatCount: Int?

    @Option(help: "Discarded warm-up trials before measuring, 0 to \(Self.maximumWarmup).")
    var warmup: Int = 1

    @Option(
        name: .customLong("trial-ms"),
        help:
            "Length of each trial in milliseconds, 10 to \(Self.maximumTrialMilliseconds) (default: the spec's trial_ms)."
    )
    var trialMilliseconds: Int?

    @Option(help: "Seed for jitter draws and the trial order.")
    var seed: UInt64 = 42

    @Option(help: "Run directory (default: results/<run-id>).", completion: .directory)
    var out: String?

    @Option(
        help: "Directory for the charts' data, gnuplot scripts, SVG and PNG (default: plots/<run-id>).",
        completion: .directory)
    var plots: String?

    @Flag(help: "Replace the trials of a run directory that already exists at --out.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Continue the interrupted sweep in RUN_DIR, running only the trials it lacks; give the flags it was started with (checked against its machine.json).",
            valueName: "RUN_DIR"), completion: .directory)
    var resume: String?

    @Option(
        name: .customLong("busy-retries"),
        help:
            "Run a trial again, up to this many times, when other processes used more than 5% of the CPUs during it (default 2; 0 with --http to a server on this machine, whose CPU is expected)."
    )
    var busyRetries: Int?

    @Flag(
        name: .customLong("dry-run"),
        help:
            "Print the trials the sweep would run, its estimated time and memory, and exit without measuring. A plan over 24 hours or over this machine's memory is refused either way (exit 64)."
    )
    var dryRun = false

    @Flag(help: "No progress line on stderr (for CI).")
    var quiet = false

    @Option(
        help:
            "Standard output: table (the console summary and the run directory) or json (one document: recommendation, per-size figures, warnings, run directory)."
    )
    var format: OutputFormat = .table

    /// Upper bounds, so that a typo (`--repeat 1000000000`) is an error, not days of work.
    static let maximumRepetitions = 100
    static let maximumWarmup = 20
    static let maximumTrialMilliseconds = 600_000

    func run() throws {
        let plan = try makePlan()
        let estimate = plan.estimate
        if dryRun {
            print("dry run: \(estimate.summary); nothing measured")
            print(estimate.plan)
            return
        }
        if let warning = estimate.longWarning { PoolSizeCommand.printError(warning) }
        let directory = URL(fileURLWithPath: resume ?? out ?? "results/\(plan.runID)")
        // The charts are written after the sweep: find out now, not after an hour, that they
        // cannot be.
        try AtomicFile.checkWritable(ReportWriter.plotsDirectory(plots, runID: plan.runID), flag: "--plots")
        let mode: ExportManager.Mode = resume != nil ? .resume : force ? .replace : .create
        let custom: (any WorkloadSource)? = try commandSource() ?? httpSource()
        let workload: RecordedSweep.Workload =
            try custom.map { .source($0) } ?? trace.map { .trace(try Trace.load(path: $0)) }
            ?? .spec(scratch: scratch.map { URL(fileURLWithPath: $0) })
        let progress = SweepProgress(quiet: quiet)
        let sweep = try RecordedSweep(
            plan: plan, directory: directory, mode: mode, workload: workload,
            commandLine: Secrets.commandLine(CommandLine.arguments), forward: progress)
        sweep.exporter.notices.forEach(PoolSizeCommand.printError)
        // Ctrl-C or SIGTERM from the first trial to the last chart: what is finished is on disk,
        // running children are stopped, and the process says so and exits 130.
        let interrupt = InterruptNotice(directory: directory.path, progress: progress.line)
        defer { interrupt.cancel() }
        let outcome = try sweep.run()
        progress.line.finish()
        if format == .json {
            print(outcome.json, terminator: "")
        } else {
            print(outcome.summary); print(outcome.directory.path)
        }
        // A sweep whose primitive failed its integrity check, or in which no size met the latency
        // objective, still gets its report (which says why); the error and its exit code follow.
        if let problem = outcome.problem {
            switch problem {
            case .integrityViolated, .objectiveNotMet: break
            default: throw problem
            }
        }
        try ReportWriter.writeRunReport(runDirectory: directory, plots: plots).notices.forEach(
            PoolSizeCommand.printError)
        if let problem = outcome.problem { throw problem }
    }

    /// Every flag is checked here, before anything runs or is written.
    func makePlan() throws(PoolSizeError) -> SweepPlan {
        if let out, out.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidOption(
                flag: "--out",
                message:
                    "is empty; name a directory, e.g. --out results/my-run (or leave --out out for results/<run-id>)")
        }
        if let plots, plots.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidOption(
                flag: "--plots",
                message:
                    "is empty; name a directory, e.g. --plots plots/my-run (or leave --plots out for plots/<run-id>)")
        }
        if let resume {
            if force {
                throw .invalidOption(
                    flag: "--resume",
                    message: "cannot be combined with --force; --force starts the run again, --resume continues it")
            }
            if let out,
                URL(fileURLWithPath: out).standardizedFileURL != URL(fileURLWithPath: resume).standardizedFileURL
            {
                throw .invalidOption(
                    flag: "--resume", message: "continues the run in \(resume), but --out names \(out); drop --out")
            }
            guard
                FileManager.default.fileExists(
                    atPath: URL(fileURLWithPath: resume).appendingPathComponent("trials.csv").path)
            else {
                throw .inputNotFound(
                    path: resume,
                    hint: "--resume takes a run directory with trials.csv, written by an interrupted 'poolsize sweep'")
            }
        }
        var spec: WorkloadSpec
        if exec == nil && http == nil {
            for (flag, given) in [
                ("--http-method", httpMethod != "GET"), ("--http-body", httpBody != nil),
                ("--http-header", !httpHeaders.isEmpty),
                ("--http-secret-header", !httpSecretHeaders.isEmpty), ("--http-cacert", httpCACert != nil),
                ("--http-insecure", httpInsecure),
            ] where given {
                throw .invalidOption(flag: flag, message: "applies to --http requests; add --http URL or drop \(flag)")
            }
            if taskTimeout != "60s" {
                throw .invalidOption(
                    flag: "--task-timeout",
                    message: "applies to --exec and --http tasks; add one of them or drop --task-timeout")
            }
        }
        if exec == nil, execOutput != nil {
            throw .invalidOption(
                flag: "--exec-output",
                message: "keeps the output of --exec commands; add --exec COMMAND or drop --exec-output")
        }
        if let http {
            guard workload == nil, trace == nil, exec == nil else {
                throw .invalidOption(
                    flag: "--http", message: "replaces --workload, --trace and --exec; give one of them")
            }
            let target = try httpTarget(http)
            _ = try httpVerification(target)
            _ = try taskTimeoutSeconds()
            spec = WorkloadSpec(
                name: "http-" + String(target.host.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
                description: "HTTP: \(target.display)",
                cpuMicroseconds: 0, waitMicroseconds: 0, trialMilliseconds: trialMilliseconds ?? 1000)
        } else if let exec {
            guard workload == nil, trace == nil else {
                throw .invalidOption(flag: "--exec", message: "replaces --workload and --trace; give one of them")
            }
            let source = try commandSource()!
            spec = WorkloadSpec(
                name: "exec-" + URL(fileURLWithPath: source.arguments[0]).lastPathComponent,
                description: "command: \(exec.split(whereSeparator: \.isNewline).joined(separator: " "))",
                cpuMicroseconds: 0, waitMicroseconds: 0,
                trialMilliseconds: trialMilliseconds ?? 1000)
        } else if let trace {
            guard workload == nil else {
                throw .invalidOption(flag: "--trace", message: "replaces --workload; give one of them")
            }
            spec = try Trace.load(path: trace).spec(trialMilliseconds: trialMilliseconds ?? 1000)
        } else {
            spec = try WorkloadLoader.load(workload ?? "io")
        }
        let arrival = try arrivalPlan()
        let selection = try SizeSelection.parse(sizes)
        let repetitions = repeatCount ?? (arrival?.isRange == true ? 1 : 3)
        let pools = try AxisSelection.pools(pool)
        let tiers = try AxisSelection.tiers(qos)
        let primitives = try AxisSelection.primitives(primitive)
        if let criticalMicroseconds {
            guard criticalMicroseconds >= 0 && criticalMicroseconds <= spec.cpuMicroseconds else {
                throw .invalidOption(
                    flag: "--critical-us",
                    message:
                        "must be between 0 and the workload's cpu_us (\(UnitFormat.significant(spec.cpuMicroseconds))), got \(UnitFormat.significant(criticalMicroseconds))"
                )
            }
            spec.criticalMicroseconds = criticalMicroseconds
        }
        guard readRatio >= 0 && readRatio <= 1 else {
            throw .invalidOption(
                flag: "--read-ratio", message: "must be in [0, 1], got \(readRatio); write 0.9 for 90% reads")
        }
        if let cores, cores < 1 || cores > SizeSelection.maximumSize {
            throw .invalidOption(flag: "--cores", message: "must be 1 to \(SizeSelection.maximumSize), got \(cores)")
        }
        guard targetUtilization >= 0.05 && targetUtilization <= 1 else {
            throw .invalidOption(
                flag: "--target-utilization", message: "must be 0.05 to 1, got \(targetUtilization); write 0.8 for 80%")
        }
        guard tolerance > 0 && tolerance < 0.5 else {
            throw .invalidOption(
                flag: "--tolerance", message: "must be in (0, 0.5), got \(tolerance); write 0.05 for 5%")
        }
        guard repetitions >= 1 && repetitions <= Self.maximumRepetitions else {
            throw .invalidOption(
                flag: "--repeat",
                message:
                    "must be 1 to \(Self.maximumRepetitions), got \(repetitions); 3 gives a spread, 5 lets compare test significance"
            )
        }
        if let busyRetries, busyRetries < 0 || busyRetries > 10 {
            throw .invalidOption(flag: "--busy-retries", message: "must be 0 to 10, got \(busyRetries)")
        }
        // A server on this machine uses its CPU during every trial: that is the load under
        // test, not noise to retry.
        let loopback = try http.map(httpTarget)?.isLoopback ?? false
        let retries = busyRetries ?? (loopback ? 0 : 2)
        guard warmup >= 0 && warmup <= Self.maximumWarmup else {
            throw .invalidOption(flag: "--warmup", message: "must be 0 to \(Self.maximumWarmup), got \(warmup)")
        }
        if let trialMilliseconds, trialMilliseconds < 10 || trialMilliseconds > Self.maximumTrialMilliseconds {
            throw .invalidOption(
                flag: "--trial-ms",
                message: "must be 10 to \(Self.maximumTrialMilliseconds) (10 minutes), got \(trialMilliseconds)")
        }
        let coreCount = MachineProbe.coreCount(override: cores)
        var plan = SweepPlan(
            runID: RunID.make(workload: spec.name), spec: spec, sizes: selection, repetitions: repetitions,
            warmupTrials: warmup, cores: coreCount.effective, targetUtilization: targetUtilization,
            tolerance: tolerance, seed: seed, pools: pools, tiers: tiers, primitives: primitives, readRatio: readRatio,
            trialMilliseconds: trialMilliseconds, contend: contend, busyRetries: retries)
        plan.search = search ?? (selection == .auto && arrival == nil ? .adaptive : .grid)
        plan.load = arrival.map(Load.open) ?? .closed
        if arrival != nil {
            if search == .adaptive {
                throw .invalidOption(
                    flag: "--search",
                    message:
                        "adaptive searches for the throughput knee of a closed loop; an open-loop sweep (--arrival-rate) measures the sizes around the rate's load: drop --search"
                )
            }
            if budget != nil {
                throw .invalidOption(
                    flag: "--budget",
                    message:
                        "fits an adaptive search to the time and does not apply to --arrival-rate; set the trials with --sizes, --repeat and --trial-ms"
                )
            }
        }
        if let budget {
            guard selection == .auto else {
                throw .invalidOption(
                    flag: "--budget",
                    message: "chooses sizes and repetitions itself and needs --sizes auto; drop --sizes or --budget")
            }
            guard search != .grid else {
                throw .invalidOption(
                    flag: "--budget", message: "fits an adaptive search to the time; drop --search grid or --budget")
            }
            let seconds = try QuantityParser.seconds(budget, flag: "--budget")
            guard seconds > 0 else {
                throw .invalidOption(flag: "--budget", message: "must be more than 0, got \(budget); write 30s or 5m")
            }
            plan = try plan.fitting(budgetSeconds: seconds)
        }
        try Self.checkBounded(plan.estimate)
        return plan
    }

    /// The open-loop flags, checked; nil without `--arrival-rate`.
    func arrivalPlan() throws(PoolSizeError) -> ArrivalPlan? {
        guard let arrivalRate else {
            for (flag, given) in [
                ("--arrivals", arrivals != nil), ("--latency-slo", latencySLO != nil),
                ("--slo-percentile", sloPercentile != nil),
            ] where given {
                throw .invalidOption(
                    flag: flag,
                    message:
                        "applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop \(flag)")
            }
            return nil
        }
        let rates = try ArrivalPlan.parseRates(arrivalRate)
        var plan = ArrivalPlan(rates: rates, process: arrivals ?? .poisson)
        if let latencySLO {
            let seconds = try QuantityParser.seconds(latencySLO, flag: "--latency-slo")
            guard seconds > 0, seconds <= 3600 else {
                throw .invalidOption(
                    flag: "--latency-slo",
                    message: "must be more than 0 and at most 1h, got \(latencySLO); write it like 40ms")
            }
            plan.latencySLOMicroseconds = seconds * 1e6
        } else if sloPercentile != nil {
            throw .invalidOption(
                flag: "--slo-percentile",
                message: "sets the percentile of --latency-slo; add --latency-slo (e.g. 40ms) or drop --slo-percentile")
        }
        if let sloPercentile {
            let text = sloPercentile.trimmingCharacters(in: .whitespaces)
            let number = Double(text.hasPrefix("p") ? String(text.dropFirst()) : text)
            guard let number, SLOSizer.percentiles.contains(number) else {
                throw .invalidOption(
                    flag: "--slo-percentile",
                    message: "'\(text)' is not a recorded percentile; use one of 50, 90, 99, 99.9")
            }
            plan.sloPercentile = number
        }
        return plan
    }

    /// The `--exec` command, resolved and checked before anything runs; nil without `--exec`.
    func commandSource() throws(PoolSizeError) -> CommandSource? {
        guard let exec else { return nil }
        let timeout = try taskTimeoutSeconds()
        var output: URL? = nil
        if let execOutput {
            output = URL(fileURLWithPath: execOutput)
            try AtomicFile.checkWritable(output!, flag: "--exec-output")
        }
        return try CommandSource(arguments: ShellWords.split(exec), timeoutSeconds: timeout, outputDirectory: output)
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

    /// The `--http` request, checked; reads `--http-body`.
    func httpTarget(_ url: String) throws(PoolSizeError) -> HTTPTarget {
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
        return try HTTPTarget(url: url, method: httpMethod, headers: httpHeaders, body: body)
    }

    /// The `--http` client, made before anything runs; nil without `--http`.
    func httpSource() throws(PoolSizeError) -> HTTPSource? {
        guard let http else { return nil }
        let timeout = try taskTimeoutSeconds()
        let target = try httpTarget(http)
        return try HTTPSource(target: target, timeoutSeconds: timeout, verification: httpVerification(target))
    }

    /// How `--http-cacert` and `--http-insecure` say to check an https:// server.
    func httpVerification(_ target: HTTPTarget) throws(PoolSizeError) -> HTTPVerification {
        let flag = httpCACert != nil ? "--http-cacert" : httpInsecure ? "--http-insecure" : nil
        guard let flag else { return .system }
        guard target.url.lowercased().hasPrefix("https://") else {
            throw .invalidOption(
                flag: flag,
                message: "applies to https:// URLs, and --http is '\(target.url)'; drop \(flag) or use https://")
        }
        if httpCACert != nil && httpInsecure {
            throw .invalidOption(
                flag: "--http-insecure", message: "skips the verification --http-cacert asks for; give one of them")
        }
        guard let httpCACert else { return .none }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: httpCACert, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw .inputNotFound(
                path: httpCACert, hint: "--http-cacert takes a PEM file of the CA certificates that issued the server's"
            )
        }
        // Absolute: libcurl reads it when each handle connects, whatever the directory then.
        return .certificateAuthorities(path: URL(fileURLWithPath: httpCACert).standardizedFileURL.path)
    }

    /// Refuses a plan over 24 hours or over this machine's memory, before anything runs.
    static func checkBounded(_ estimate: SweepEstimate, memory: Double = Double(ProcessInfo.processInfo.physicalMemory))
        throws(PoolSizeError)
    {
        let fix = "measure fewer sizes, axes or repetitions, or shorter trials (--trial-ms)"
        if estimate.seconds > SweepEstimate.maximumSeconds {
            throw .invalidOption(
                flag: "--sizes/--repeat",
                message: "the plan is \(estimate.summary), over the 24 h a sweep may take; \(fix)")
        }
        if estimate.bytes > memory {
            throw .invalidOption(
                flag: "--sizes/--repeat",
                message:
                    "the plan is \(estimate.summary), over this machine's \(SweepEstimate.memory(memory)) of memory; \(fix)"
            )
        }
    }
}

extension SearchMode: ExpressibleByArgument {}
extension ArrivalProcess: ExpressibleByArgument {}

enum RunID {
    /// `20261122-051503-io`: sortable, and unique enough for one person's results directory.
    /// The workload part is cut to 64 characters: the id names directories (results/<run-id>,
    /// plots/<run-id>), and a file name holds at most 255 bytes (a 243-character host name in
    /// --http would otherwise make the default directories impossible).
    static func make(workload: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let safe = workload.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" }
        return "\(formatter.string(from: date))-\(String(safe))"
    }
}
