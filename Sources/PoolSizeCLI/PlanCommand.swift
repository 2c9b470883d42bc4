import ArgumentParser
import PoolSizeModel
import PoolSizeOutput
import PoolSizeAnalysis

extension PlanFormat: ExpressibleByArgument {}

/// `poolsize plan`: parse → validate → plan → print (docs/conventions.md). The arithmetic lives in
/// `CapacityPlanner`, the reading in `PlanSourceReader`, the table in `PlanReport`.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Turn a task's wait and CPU time and a target rate into threads per host and hosts.",
        discussion: """
            Threads per host = ceil(cores × U × (1 + W/C)) (Goetz); hosts = ceil(rate × (1 + headroom) ÷ (cores × U ÷ C)). \
            Each host is modelled as an M/M/c queue of its cores (Erlang C) for the wait for a core, the response-time \
            percentile and the SLO check; tasks in the system follow Little's law. Durations: 40ms, 500us (or 500µs), \
            1.5s, 2min. Rates: 1200/s, 72000/min, or a bare number per second. Fractions: 30% or 0.3.
            """)

    @Option(
        help: ArgumentHelp(
            "Run directory to take W, C and the measured knee (an open-loop run: the size measured at each rate) from, instead of --wait and --cpu.",
            valueName: "run-dir"), completion: .directory)
    var from: String?

    @Option(
        help: ArgumentHelp(
            "W: time a task waits while holding its thread (I/O, sleeps, remote calls), e.g. 40ms.",
            valueName: "duration"))
    var wait: String?

    @Option(help: ArgumentHelp("C: CPU time a task burns, e.g. 5ms.", valueName: "duration"))
    var cpu: String?

    @Option(
        name: .customLong("target-rate"),
        help: ArgumentHelp("Tasks per second over all hosts, e.g. 1200/s or 72000/min.", valueName: "rate"))
    var targetRate: String

    @Option(
        name: .customLong("cores-per-host"),
        help: "Cores of each host (with --from, default: the run's effective cores).")
    var coresPerHost: Int?

    @Option(
        name: .customLong("target-utilization"),
        help: ArgumentHelp("U: CPU share each host is sized to use, in (0, 1], e.g. 0.8 or 80%.", valueName: "fraction")
    )
    var targetUtilization: String = "0.8"

    @Option(help: ArgumentHelp("Spare capacity on top of the target rate, e.g. 30% or 0.3.", valueName: "fraction"))
    var headroom: String = "0%"

    @Option(
        name: .customLong("latency-slo"),
        help: ArgumentHelp("Response time the --slo-percentile must stay within, e.g. 250ms.", valueName: "duration"))
    var latencySLO: String?

    @Option(
        name: .customLong("slo-percentile"), help: "Percentile of the response time to report and check, in (0, 100).")
    var sloPercentile: Double = 99

    @Option(help: "Output: table or json.")
    var format: PlanFormat = .table

    func run() throws {
        let plan = try CapacityPlanner.plan(makeInputs())
        print(format == .json ? JSONExport.serialize(plan) : PlanReport.render(plan), terminator: "")
    }

    /// Every flag is parsed and cross-checked here; ranges are checked by `CapacityPlanner`.
    func makeInputs() throws(PoolSizeError) -> PlanInputs {
        let (waitSeconds, cpuSeconds, run) = try taskTimes()
        guard let cores = coresPerHost ?? run?.cores else {
            let message =
                from == nil
                ? "is required without --from; e.g. --cores-per-host 8"
                : "the run does not record its cores; pass e.g. --cores-per-host 8"
            throw .invalidOption(flag: "--cores-per-host", message: message)
        }
        return PlanInputs(
            waitSeconds: waitSeconds, cpuSeconds: cpuSeconds,
            targetRatePerSecond: try QuantityParser.perSecond(targetRate, flag: "--target-rate"), coresPerHost: cores,
            targetUtilization: try QuantityParser.fraction(targetUtilization, flag: "--target-utilization"),
            headroom: try QuantityParser.fraction(headroom, flag: "--headroom"),
            latencySLOSeconds: try latencySLO.map { text throws(PoolSizeError) in
                try QuantityParser.seconds(text, flag: "--latency-slo")
            },
            sloPercentile: sloPercentile, measuredRun: run)
    }

    /// W and C, declared or from `--from`; exactly one of the two ways.
    func taskTimes() throws(PoolSizeError) -> (Double, Double, MeasuredRun?) {
        if let from {
            guard wait == nil, cpu == nil else {
                throw .invalidOption(
                    flag: "--from",
                    message: "takes W and C from the run; drop --wait and --cpu, or drop --from to declare them")
            }
            let source = try PlanSourceReader.load(from)
            return (source.waitSeconds, source.cpuSeconds, source.run)
        }
        guard let wait, let cpu else {
            throw .invalidOption(
                flag: wait == nil ? "--wait" : "--cpu",
                message:
                    "is required without --from; declare both, e.g. --wait 40ms --cpu 5ms, or take them from a sweep with --from RUN_DIR"
            )
        }
        return (try QuantityParser.seconds(wait, flag: "--wait"), try QuantityParser.seconds(cpu, flag: "--cpu"), nil)
    }
}
