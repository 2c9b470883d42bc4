import Foundation
import PoolSizeModel
import PoolSizeAnalysis

/// W, C and the measured curve's knee from a run directory, for `plan --from RUN_DIR`.
package struct PlanSource: Equatable, Sendable {
    package var waitSeconds: Double
    package var cpuSeconds: Double
    package var run: MeasuredRun
}

/// Reads a `plan --from` run directory (results/README.md): W and C from `lowload.json` (the
/// one-worker measurement the formula needs; docs/platform.md "Measuring W and C"), falling
/// back to `recommendation.json`, which repeats them; the knee, the formula on the run's
/// machine and W/C's interval from `recommendation.json` (for an open-loop run the size
/// measured at each rate instead of a knee); cores and CPU from `machine.json`.
package enum PlanSourceReader {
    /// The longest task a sweep times (`--task-timeout` at most 1 h), µs.
    static let maximumMicroseconds = 3_600_000_000.0
    /// Past this W/C the formula asks for millions of threads per core.
    static let maximumWaitCPURatio = 1_000_000.0

    package static func load(_ path: String) throws(PoolSizeError) -> PlanSource {
        let directory = RunDirectory(URL(fileURLWithPath: path))
        guard RunDirectory.isDirectory(directory.url) else {
            throw .inputNotFound(
                path: path, hint: "--from takes a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        // An observation measures no low-load W and C: say so rather than report lowload.json
        // missing, and point to the figures it does print.
        if directory.holdsObservation {
            throw .invalidInput(
                path: directory.url.path,
                message:
                    "it holds an observation (observation.json, written by 'poolsize observe --out'), which --from "
                    + "cannot use: --from takes a sweep's run directory (results/<run-id>); or declare the observed "
                    + "pool's W and C per task with --wait and --cpu (observe prints them on its 'per task' line "
                    + "when given --throughput or --counter)")
        }
        let lowLoad = try directory.decode(LowLoadEstimate.self, .lowLoad)
        let recommendations = try directory.decode(RecommendationSet.self, .recommendation)
        let recommendation = recommendations?.best
        let machine = try directory.decode(RunInfo.self, .machine)
        // The cores and workload below are the sweep's: an observation's machine.json beside a
        // sweep's files belongs to another run.
        if let machine, machine.plan == nil {
            throw .invalidInput(
                path: directory.url(.machine).path,
                message:
                    "it records an observation, not a sweep's plan, so it is not this "
                    + "run's; pass the sweep's run directory, or delete the file to plan from lowload.json and "
                    + "recommendation.json alone")
        }
        // A server run without its target would be planned from as poolsize's own pools.
        if let plan = machine?.plan { try directory.checkTarget(plan) }

        // A run whose sweep measured no W and C is whole, not damaged: say what it lacks.
        if lowLoad.map({ !$0.isMeasured }) ?? (machine?.plan?.target.measuresLowLoad == false) {
            throw .runLacksMeasurement(path: directory.url.path, message: withoutWaitCPU(machine?.plan?.target))
        }
        let cpu = lowLoad?.cpuMicrosecondsPerTask ?? recommendation?.cpuMicrosecondsPerTask.finite
        let wait = lowLoad?.waitMicrosecondsPerTask ?? recommendation?.waitMicrosecondsPerTask.finite
        guard let cpu, let wait else {
            throw .inputNotFound(
                path: directory.url(.lowLoad).path,
                hint:
                    "the run has no low-load W and C (it stopped before measuring them); rerun the sweep or pass --wait and --cpu"
            )
        }
        let source: RunDirectory.File = lowLoad != nil ? .lowLoad : .recommendation
        // What a sweep can have measured: a task within --task-timeout's hour, and a W/C whose
        // pool (cores × (1 + W/C)) a machine can hold. Anything else is a damaged file, and
        // must be named as such, not passed on for the planner to blame on --wait.
        guard cpu > 0, cpu <= maximumMicroseconds, wait >= 0, wait <= maximumMicroseconds,
            wait / cpu <= maximumWaitCPURatio
        else {
            throw .invalidInput(
                path: directory.url(source).path,
                message:
                    "C = \(UnitFormat.number(cpu)) µs and W = \(UnitFormat.number(wait)) µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most \(UnitFormat.number(maximumWaitCPURatio))); rerun the sweep, or pass --wait and --cpu instead of --from"
            )
        }
        let cores = machine?.machine?.cores.effective ?? recommendation?.cores
        if let cores, !(1...CapacityPlanner.maximumCoresPerHost).contains(cores) {
            let file: RunDirectory.File = machine?.machine != nil ? .machine : .recommendation
            throw .invalidInput(
                path: directory.url(file).path,
                message:
                    "\(cores) cores is not a machine's (1 to \(CapacityPlanner.maximumCoresPerHost)); rerun the sweep, or declare --wait, --cpu and --cores-per-host instead of --from"
            )
        }
        // The figures the plan sets beside its own: each within what a sweep records, else the
        // file is damaged (a W/C interval of inf would ask for Int.max threads).
        if let recommendation {
            let figures: [(key: String, value: Double?, range: ClosedRange<Double>)] = [
                (
                    "wait_cpu_ratio_ci95_lower", recommendation.waitCPURatioLower,
                    -maximumWaitCPURatio...maximumWaitCPURatio
                ),
                ("wait_cpu_ratio_ci95_upper", recommendation.waitCPURatioUpper, 0...maximumWaitCPURatio),
                ("formula_queue_count_exact", recommendation.formulaQueueCountExact, 0.05...1e9),
                (
                    "knee_pool_size", recommendation.kneeQueueCount.map(Double.init),
                    1...Double(SizeSelection.maximumSize)
                ),
            ]
            if let bad = figures.first(where: { figure in
                figure.value.map { !$0.isFinite || !figure.range.contains($0) } ?? false
            }) {
                throw .invalidInput(
                    path: directory.url(.recommendation).path,
                    message:
                        "key '\(bad.key)' is \(UnitFormat.number(bad.value!)), not a figure a sweep records (\(UnitFormat.number(bad.range.lowerBound)) to \(UnitFormat.number(bad.range.upperBound))); rerun the sweep, or declare --wait and --cpu instead of --from"
                )
            }
        }
        var run = MeasuredRun(
            path: path, runID: machine?.runID, workload: recommendation?.workload ?? machine?.plan?.spec.name,
            cpuModel: machine?.machine?.cpuModel, cores: cores,
            waitCPURatioLower: recommendation?.waitCPURatioLower, waitCPURatioUpper: recommendation?.waitCPURatioUpper,
            // The knee as the sweep decided it: a formula answer's curve still rose at its
            // largest size, which is no knee to adjust by.
            kneePoolSize: recommendation?.measuredKneeQueueCount,
            formulaQueueCountExact: recommendation?.formulaQueueCountExact,
            stillRisingAt: recommendation?.stillRisingAtQueueCount,
            recommendedQueueCount: recommendation?.answeredCurve != nil ? recommendation?.recommendedQueueCount : nil
        )
        // An open loop has no throughput knee (what it carries flattens at the rate offered):
        // what it measured is a size per rate.
        run.openLoop = measuredOpenLoop(machine: machine, recommendations: recommendations)
        return PlanSource(waitSeconds: wait / 1e6, cpuSeconds: cpu / 1e6, run: run)
    }

    /// Why a run has no W and C, by what it swept, and what to do: one line.
    static func withoutWaitCPU(_ target: SweepTarget?) -> String {
        let why: String
        switch target {
        case .loadTool:
            why =
                "a load tool run alone (sweep --load without --server) prints no CPU time per request, so that sweep "
                + "measured no W/C and sized by its measured knee alone; sweep the service with --server CMD (and "
                + "your --load) to measure them"
        default:
            why = "its lowload.json records no task measured; rerun the sweep"
        }
        return "plan needs a task's W and C, and this run measured none: \(why), "
            + "or declare --wait and --cpu instead of --from"
    }
}
