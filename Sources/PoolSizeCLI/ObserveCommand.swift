import ArgumentParser
import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeObserve
import PoolSizeOutput

/// `poolsize observe PID` and `poolsize observe -- CMD ARGS…`: parse → validate → observe →
/// render. Sampling, grouping and estimation live in PoolSizeObserve.
struct ObserveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract:
            "Size the pools of a running process from outside: which pools it has, how busy each is, what its threads spend on CPU, waiting for a CPU and blocked, and how many each should have.",
        discussion: """
            Reads /proc at Poisson-timed instants (no agent, no ptrace stop, no signal): schedstat for each thread's CPU (C) and run-queue time (Q), its state and blocking syscall for what it waits on. Threads are grouped into pools by name with trailing numbers stripped, processes of one name apart when their titles differ (a postmaster, its checkpointer and its backends; --group overrides). Per pool: busy fraction, time shares with 95% intervals, W/C as a range [known IO, known IO + ambiguous], N = cores × U × (1 + W/C) over that range, and a verdict. A thread parked in futex, a sleep, or epoll_wait, poll or select on pipes, wake-ups or a client's connection may be idle or inside a task; that cannot be told from outside, so it widens the range instead of being guessed. CPython and Ruby processes are recognised: their interpreter lock makes N's parallelism 1 per process.

            'observe -- CMD ARGS…' starts CMD as a descendant (readable even under Yama ptrace_scope 1), sends its process group SIGTERM at the end and SIGKILL \(Int(ObservationSession.commandGraceSeconds)) s later; whatever it started is stopped too, setsid'd jobs included, and also when observe itself is killed. Its output goes to stderr. A command that ends before --duration ends the observation with it, as with time or perf stat: exit 0, the figures cover its life.

            Exit codes besides the usual: 6 the target PID exited before the end, 7 its blocking syscalls were unreadable, 8 it belongs to another user, 9 no schedstat (each prints what was measured, then one line saying what could not be); 10 the target has exited (a zombie), 11 it is a kernel thread, 69 not Linux (nothing is observed); 130 interrupted. See docs/guide/observe.md.
            """)

    @Argument(help: "The process to observe (omit it with -- CMD).")
    var pid: Int32?

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("A command to start and observe instead of a PID: '-- CMD ARGS…'.", valueName: "CMD"))
    var command: [String] = []

    @Option(help: "How long to observe, e.g. 30s or 2min.")
    var duration: String = "30s"

    @Option(
        help: ArgumentHelp(
            "Sweeps per second (a Poisson mean), or auto: up to 100 a second while the observer's CPU stays within 1% of one core.",
            valueName: "HZ"))
    var rate: String = "auto"

    @Flag(help: "Include the target's child processes (worker processes as one pool).")
    var children = false

    @Option(
        help: ArgumentHelp(
            "Put threads whose name matches REGEX into pool NAME; 'title:REGEX=NAME' matches their process's title "
                + "(its command line as the process shows it, e.g. 'title:^nginx: worker=workers'); repeatable, the "
                + "first match wins.",
            valueName: "[title:]REGEX=NAME"))
    var group: [String] = []

    @Option(
        help:
            "The parallelism the target can use, instead of its CPUs (GOMAXPROCS, an event-loop count); a CPython or Ruby process's interpreter lock is found and applied (1 per process) without it."
    )
    var parallelism: Int?

    @Option(
        help: ArgumentHelp(
            "Tasks per second through the pool (--pool, else the one using the most CPU): per-task C and W, N(λ) = λ(C + W), Erlang C.",
            valueName: "R/s"))
    var throughput: String?

    @Option(
        help: ArgumentHelp(
            "With --throughput: the mean time a task spends in the pool; resolves the ambiguous waits.", valueName: "D")
    )
    var latency: String?

    @Option(
        help: ArgumentHelp(
            "A command printing a running total of the pool's tasks (a request or transaction count), run as the "
                + "observation starts and as it ends: the task rate, as --throughput gives it. No shell (write sh -c '…' "
                + "for pipes); stopped after \(Int(TaskCounter.timeoutSeconds)) s.",
            valueName: "CMD"))
    var counter: String?

    @Option(help: "The pool --throughput (or --counter) and --latency describe (default: the one using the most CPU).")
    var pool: String?

    @Option(
        help: ArgumentHelp(
            "Also write a run directory: observation.json, a CSV per pool (its shares second by second), charts, "
                + "report.md and report.html.",
            valueName: "DIR"),
        completion: .directory)
    var out: String?

    @Option(
        help: ArgumentHelp(
            "With --out: directory for the charts' data, gnuplot scripts, SVG and PNG (default: plots/<run-id>).",
            valueName: "DIR"),
        completion: .directory)
    var plots: String?

    @Flag(
        help: "With --out: replace the observation there, or write into a directory of other files (touching none).")
    var force = false

    @Option(help: "Seed of the Poisson sampling schedule.")
    var seed: UInt64 = 42

    @Option(help: "Standard output: table or json.")
    var format: OutputFormat = .table

    @Option(help: .hidden, completion: .file())
    var record: String?

    /// The most tasks per second `--throughput` takes: a task a nanosecond, beyond any pool.
    static let mostThroughputPerSecond = 1e9

    /// The checked flags.
    struct Request {
        var target: ObserveTarget
        var plan: SamplerPlan
        var settings: EstimatorSettings
        var counter: TaskCounter?
        var output: Output?
    }

    /// Where `--out` writes: the run directory, the charts' directory and the run's id.
    struct Output {
        var directory: URL
        var plots: URL
        var runID: String
    }

    func run() throws {
        let request = try makeRequest()
        let stop = StopSignal()
        let interrupt = ObserveInterrupt(stop: stop)
        let signals = SignalWatch { _ in interrupt.signal() }
        defer { signals.cancel() }
        let result: ObservationSession.Result
        do {
            result = try ObservationSession.run(
                target: request.target, plan: request.plan, parallelism: parallelism,
                generator: SeededGenerator(seed: seed), stop: stop, counter: request.counter)
        } catch .interrupted {
            PoolSizeCommand.printError("observe: interrupted before the first sweep: nothing was measured")
            Foundation.exit(130)
        } catch {
            throw Self.error(error)
        }
        if let output = result.commandOutput {
            FileHandle.standardError.write(Data((output.standardOutput + output.standardError).utf8))
        }
        if let record, let recording = result.outcome.recording {
            do {
                try recording.encoded().write(to: URL(fileURLWithPath: record), options: .atomic)
            } catch {
                throw PoolSizeError.cannotWrite(path: record, reason: PoolSizeError.reason(of: error))
            }
        }
        var settings = request.settings
        let counted = Self.taskRate(result.count, into: &settings)
        var observation = result.outcome.observation(settings: settings)
        let problem = TaskRateProblem.find(in: observation)
        if case .implausibleLatency? = problem {
            // The figures printed are those without the latency refused below.
            settings.latencySeconds = nil
            observation = result.outcome.observation(settings: settings)
        }
        say(format == .json ? ObservationJSON.render(observation) : ObservationTable.render(observation))
        if let output = request.output { try write(observation, to: output, interrupt: interrupt) }
        if case let .failure(problem)? = counted { throw problem }
        if let problem { throw Self.error(problem) }
        if result.outcome.interrupted || stop.isStopped {
            PoolSizeCommand.printError(
                "observe: interrupted after \(UnitFormat.duration(observation.durationSeconds)): the figures above cover that time"
            )
            Foundation.exit(130)
        }
        if !observation.limits.isEmpty { throw PoolSizeError.observationLimited(observation.limits) }
    }

    func makeRequest() throws(PoolSizeError) -> Request {
        let target: ObserveTarget
        switch (pid, command.isEmpty) {
        case let (pid?, true):
            guard pid > 0 else {
                throw .invalidOption(flag: "PID", message: "must be a process id above 0, got \(pid)")
            }
            target = .process(pid: pid)
        case (nil, false):
            target = .command(command)
        case (nil, true):
            throw .invalidOption(
                flag: "PID",
                message:
                    "missing; give the PID of a running process, or start one with 'poolsize observe [options] -- CMD ARGS…'"
            )
        case (_?, false):
            throw .invalidOption(flag: "PID", message: "give a PID or '-- CMD', not both")
        }
        let seconds = try QuantityParser.seconds(duration, flag: "--duration")
        guard seconds >= 0.1 && seconds <= 86_400 else {
            throw .invalidOption(flag: "--duration", message: "must be 100ms to 24h, got \(duration)")
        }
        let samplingRate: SamplingRate
        if rate == "auto" {
            samplingRate = .standard
        } else {
            guard let hertz = Double(rate), hertz >= 0.1, hertz <= 1000 else {
                throw .invalidOption(
                    flag: "--rate", message: "'\(rate)' is not auto or a rate of 0.1 to 1000 sweeps per second")
            }
            samplingRate = .fixed(perSecond: hertz)
        }
        if let parallelism, !(1...4096).contains(parallelism) {
            throw .invalidOption(flag: "--parallelism", message: "must be 1 to 4096, got \(parallelism)")
        }
        var rules: [GroupRule] = []
        for text in group {
            do {
                rules.append(try GroupRule(parsing: text))
            } catch {
                switch error {
                case .notPatternEqualsName:
                    throw .invalidOption(
                        flag: "--group",
                        message: "'\(text)' is not [title:]REGEX=NAME; write it like 'http-nio-.*=tomcat' or "
                            + "'title:^postgres: =postgres'")
                case let .invalidPattern(reason):
                    throw .invalidOption(
                        flag: "--group",
                        message: "'\(text)' is not a regular expression (\(reason)); write '.*' for any text (not a "
                            + "shell's '*') and a backslash before ( ) [ ] . * + ? meant as themselves, as in "
                            + "'http-nio-.*=tomcat'")
                }
            }
        }
        var throughputPerSecond: Double?
        if counter != nil && throughput != nil {
            throw .invalidOption(flag: "--counter", message: "and --throughput both give the task rate; keep one")
        }
        if let throughput {
            throughputPerSecond = try QuantityParser.perSecond(throughput, flag: "--throughput")
            guard throughputPerSecond! > 0 && throughputPerSecond! <= Self.mostThroughputPerSecond else {
                throw .invalidOption(
                    flag: "--throughput",
                    message: "must be above 0 and at most 1e9/s (a task per nanosecond), got \(throughput)")
            }
        }
        var latencySeconds: Double?
        if let latency {
            guard throughputPerSecond != nil || counter != nil else {
                throw .invalidOption(
                    flag: "--latency",
                    message: "needs --throughput or --counter: the time in the pool resolves W only together with the "
                        + "task rate (Little's law)")
            }
            latencySeconds = try QuantityParser.seconds(latency, flag: "--latency")
            guard latencySeconds! > 0 else {
                throw .invalidOption(flag: "--latency", message: "must be above 0, got \(latency)")
            }
        }
        if pool != nil && throughputPerSecond == nil && counter == nil {
            throw .invalidOption(
                flag: "--pool", message: "names the pool --throughput or --counter describes; give one of them too")
        }
        return Request(
            target: target,
            plan: SamplerPlan(
                pid: pid ?? 0, includeChildren: children, durationSeconds: seconds, rate: samplingRate, seed: seed,
                keepRawTexts: record != nil, groupRules: rules),
            settings: EstimatorSettings(
                groupRules: rules, throughputPerSecond: throughputPerSecond, latencySeconds: latencySeconds,
                throughputPool: pool),
            counter: try taskCounter(), output: try checkedOutput(target: target))
    }

    /// A session failure as the one-line error of its flag or input.
    static func error(_ failure: ObservationSession.Failure) -> PoolSizeError {
        switch failure {
        case let .processNotFound(pid):
            return .inputNotFound(
                path: "pid \(pid)",
                hint:
                    "no such process; give the PID of a running process (ps -e), or start the target with 'poolsize observe [options] -- CMD ARGS…'"
            )
        case let .processExited(pid):
            return .observationLimited([ObservationLimit(kind: .zombie, pid: pid)])
        case let .kernelThread(pid):
            return .observationLimited([ObservationLimit(kind: .kernelThread, pid: pid)])
        case .unsupported:
            return .observationLimited([ObservationLimit(kind: .unsupportedPlatform, pid: 0)])
        case let .commandNotFound(program, reason):
            return .inputNotFound(
                path: program,
                hint:
                    "\(reason); 'observe -- CMD' runs a program on PATH or at a path (write sh -c '…' for shell syntax)"
            )
        case let .cannotStart(program, reason):
            return .measurementFailed("observe -- \(program): cannot start it (\(reason))")
        case let .counterFailed(failure):
            return counterError(failure, when: "as the observation started")
        case .interrupted:
            // `run` exits 130 before it gets here; a caller that does not gets one line.
            return .measurementFailed("interrupted before the first sweep: nothing was measured")
        }
    }

    /// A task-rate setting that does not fit the observation, as the one-line error of its flag.
    static func error(_ problem: TaskRateProblem) -> PoolSizeError {
        switch problem {
        case let .noSuchPool(name, pools):
            let shown = pools.prefix(12).joined(separator: ", ") + (pools.count > 12 ? ", …" : "")
            return .invalidOption(
                flag: "--pool",
                message:
                    "'\(name)' matches no pool of the target (the pools found: \(pools.isEmpty ? "none" : shown)); "
                    + "the figures above have no per-task part; give one of those names")
        case let .implausibleLatency(pool, inFlight, threads, rate):
            let most = TaskRateProblem.mostInFlightPerThread * Double(threads) / rate
            return .invalidOption(
                flag: "--latency",
                message:
                    "λ·D = \(UnitFormat.number(inFlight)) tasks in pool '\(pool)' on average, more than "
                    + "\(UnitFormat.number(TaskRateProblem.mostInFlightPerThread)) per thread (it has \(threads)): "
                    + "--latency must be the mean time a task spends inside the pool, at most "
                    + "\(UnitFormat.duration(most)) at this rate; the figures above leave it out")
        }
    }
}
