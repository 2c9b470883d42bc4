import ArgumentParser
import PoolSizeModel
import PoolSizeOutput

/// Which sizes a sweep measures, how often and for how long.
struct SweepTrialOptions: ParsableArguments {
    @Option(name: .customLong("sizes"), help: ArgumentHelp(Help.sizes, valueName: "sizes"))
    var sizeEntries: [String] = []

    /// One pool's sizes as given (`auto` when not).
    var sizes: String { sizeEntries.last ?? "auto" }

    /// A chain's knobs, when `--sizes` is given as name=sizes (several times); nil for one pool.
    func knobs() throws(PoolSizeError) -> KnobSpace? {
        if sizeEntries.count > 1, !sizeEntries.contains(where: { $0.contains("=") }) {
            throw .invalidOption(
                flag: "--sizes",
                message:
                    "is given \(sizeEntries.count) times; one pool's sizes are one list (--sizes 1,2,4,8), a chain's are one --sizes per knob (--sizes workers=1,2 --sizes threads=2,4,8)"
            )
        }
        guard let space = try KnobSpace.parse(sizeEntries) else { return nil }
        if sizesFrom != nil {
            throw .invalidOption(
                flag: "--sizes-from", message: "takes one pool's sizes from a run; a chain's knobs are listed: drop it")
        }
        return space
    }

    @Option(name: .customLong("sizes-from"), help: ArgumentHelp(Help.sizesFrom, valueName: "RUN_DIR"))
    var sizesFrom: String?

    @Option(help: ArgumentHelp(Help.search))
    var search: SearchMode?

    @Option(help: ArgumentHelp(Help.budget, valueName: "DURATION"))
    var budget: String?

    @Option(name: .customLong("repeat"), help: ArgumentHelp(Help.repeatCount))
    var repeatCount: Int?

    @Option(
        help:
            "Discarded warm-up trials before measuring, 0 to \(Self.maximumWarmup) (default 1; 0 with --server, whose every trial warms up the server it starts)."
    )
    var warmup: Int?

    @Option(name: .customLong("trial-ms"), help: ArgumentHelp(Help.trialMilliseconds))
    var trialMilliseconds: Int?

    @Option(name: .customLong("trial-margin"), help: ArgumentHelp(Help.trialMargin))
    var trialMargin: Double?

    @Option(help: "Seed for jitter draws and the trial order.")
    var seed: UInt64 = 42

    @Option(name: .customLong("busy-retries"), help: ArgumentHelp(Help.busyRetries))
    var busyRetries: Int?

    /// Upper bounds, so that a typo (`--repeat 1000000000`) is an error, not days of work.
    static let maximumRepetitions = 100
    static let maximumWarmup = 20
    static let maximumTrialMilliseconds = 600_000

    /// The sizes as `--sizes` writes them, and the flag they came from: `--sizes-from`'s run's,
    /// so that what checks explicit sizes against a server (its connections, the driver's
    /// descriptors) checks these too; else `--sizes`.
    func sizesText() throws(PoolSizeError) -> (text: String, flag: String) {
        guard let sizesFrom else { return (sizes, "--sizes") }
        guard try SizeSelection.parse(sizes) == .auto else {
            throw .invalidOption(
                flag: "--sizes-from",
                message: "takes the sizes from a run, so --sizes must not be given too; drop one")
        }
        let measured = try RunDirectory(path: sizesFrom).measuredSizes()
        return (measured.map(String.init).joined(separator: ","), "--sizes-from")
    }

    /// The trial flags, checked on their own and against the load.
    /// - Parameters:
    ///   - serverSweep: the trials start a server each, and warm it up themselves.
    ///   - listed: a chain's row's sizes, in place of `--sizes`.
    func resolve(
        load: Load, loopbackServer: Bool, serverSweep: Bool = false, listed: [Int]? = nil
    ) throws(PoolSizeError) -> SweepTrials {
        let warmup = self.warmup ?? (serverSweep ? 0 : 1)
        var selection: SizeSelection
        if let listed { selection = .explicit(listed) } else { selection = try SizeSelection.parse(sizes) }
        if let sizesFrom, listed == nil {
            guard selection == .auto else {
                throw .invalidOption(
                    flag: "--sizes-from",
                    message: "takes the sizes from a run, so --sizes must not be given too; drop one")
            }
            selection = .explicit(try RunDirectory(path: sizesFrom).measuredSizes())
        }
        let repetitions = repeatCount ?? load.defaultRepetitions
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
        guard warmup >= 0 && warmup <= Self.maximumWarmup else {
            throw .invalidOption(flag: "--warmup", message: "must be 0 to \(Self.maximumWarmup), got \(warmup)")
        }
        if let trialMilliseconds, trialMilliseconds < 10 || trialMilliseconds > Self.maximumTrialMilliseconds {
            throw .invalidOption(
                flag: "--trial-ms",
                message: "must be 10 to \(Self.maximumTrialMilliseconds) (10 minutes), got \(trialMilliseconds)")
        }
        if !load.hasThroughputKnee {
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
        var budgetSeconds: Double? = nil
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
            budgetSeconds = seconds
        }
        // A server on this machine uses its CPU during every trial: that is the load under
        // test, not noise to retry.
        return SweepTrials(
            sizes: selection, search: search ?? load.defaultSearch(sizes: selection),
            repetitions: repetitions, warmup: warmup, busyRetries: busyRetries ?? (loopbackServer ? 0 : 2),
            budgetSeconds: budgetSeconds)
    }

    private enum Help {
        static let sizes = """
            Pool sizes: auto, a list (1,2,4,8), a range (1...16) or a range with a step (8...64:8). For a chain of \
            pools (--server with a {name} per knob): one --sizes per knob, name=sizes (workers=1,2,4) or name=knob \
            (pool=threads, the same value in each cell).
            """
        static let sizesFrom = """
            Measure the sizes a recorded run measured (its run directory), each with every repetition: \
            for compare in CI, so that the current run has the base run's sizes (an adaptive search \
            picks different ones each time). Replaces --sizes; the search is then grid.
            """
        static let search = """
            How sizes are chosen: adaptive (bracket the knee geometrically, then bisect until it is resolved to \
            one size step; the default with --sizes auto) or grid (every size and repetition; the default with an \
            explicit --sizes, within which adaptive searches).
            """
        static let budget = """
            With --sizes auto: choose repetitions and trial length so that the estimated sweep fits this long \
            (e.g. 30s, 5m); refused when even the shortest sweep cannot.
            """
        static let repeatCount = """
            Measured trials per pool size (per rate, with --arrival-rate), 1 to \(maximumRepetitions) (default 3; \
            1 for a range of arrival rates).
            """
        static let trialMilliseconds = """
            Length of each trial in milliseconds, 10 to \(maximumTrialMilliseconds) (default: the spec's trial_ms); \
            given alone, every trial runs all of it (see --trial-margin).
            """
        static let trialMargin = """
            End a closed-loop trial (poolsize's own pools, or its driver against --server) before its length once its \
            throughput is known within this share (the half-width of its 95% interval, over at least 300 tasks), 0 to \
            0.5 exclusive (default 0.02); --trial-ms alone runs every trial its whole length, and with this flag is the \
            longest a trial runs.
            """
        static let busyRetries = """
            Run a trial again, up to this many times, when other processes used more than 5% of the CPUs during it \
            (default 2; 0 with --http to a server on this machine, whose CPU is expected).
            """
    }
}

extension SearchMode: ExpressibleByArgument {}
