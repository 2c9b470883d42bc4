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
    package static func load(_ path: String) throws(PoolSizeError) -> PlanSource {
        let directory = RunDirectory(URL(fileURLWithPath: path))
        guard RunDirectory.isDirectory(directory.url) else {
            throw .inputNotFound(path: path, hint: "--from takes a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        let lowLoad = try directory.decode(LowLoadEstimate.self, .lowLoad)
        let recommendations = try directory.decode(RecommendationSet.self, .recommendation)
        let recommendation = recommendations?.best
        let machine = try directory.decode(RunInfo.self, .machine)

        let cpu = lowLoad?.cpuMicrosecondsPerTask ?? recommendation?.cpuMicrosecondsPerTask.finite
        let wait = lowLoad?.waitMicrosecondsPerTask ?? recommendation?.waitMicrosecondsPerTask.finite
        guard let cpu, let wait else {
            throw .inputNotFound(
                path: directory.url(.lowLoad).path,
                hint: "the run has no low-load W and C (it stopped before measuring them); rerun the sweep or pass --wait and --cpu")
        }
        let source: RunDirectory.File = lowLoad != nil ? .lowLoad : .recommendation
        guard cpu > 0, cpu.isFinite, wait >= 0, wait.isFinite else {
            throw .invalidInput(
                path: directory.url(source).path,
                message: "C = \(UnitFormat.number(cpu)) µs and W = \(UnitFormat.number(wait)) µs per task are not usable times (C must be > 0, W ≥ 0)")
        }
        var run = MeasuredRun(
            path: path, runID: machine?.runID, workload: recommendation?.workload ?? machine?.workload?.name,
            cpuModel: machine?.machine?.cpuModel, cores: machine?.machine?.cores.effective ?? recommendation?.cores,
            waitCPURatioLower: recommendation?.waitCPURatioLower, waitCPURatioUpper: recommendation?.waitCPURatioUpper,
            kneePoolSize: recommendation?.kneePoolSize, formulaQueueCountExact: recommendation?.formulaQueueCountExact)
        // An open loop has no throughput knee (what it carries flattens at the rate offered):
        // what it measured is a size per rate.
        let latency = recommendation?.latency
        if let arrival = machine?.arrival ?? latency.map({ ArrivalPlan(rates: [$0.arrivalRate], latencySLOMicroseconds: $0.latencySLOMicroseconds, sloPercentile: $0.sloPercentile) }) {
            run.kneePoolSize = nil
            let sizings = latency?.rateSizings ?? latency.map { l in
                [RateSizing(arrivalRate: l.arrivalRate, recommendedQueueCount: l.met ? recommendation?.recommendedQueueCount : nil, percentileMicroseconds: l.measuredMicroseconds, queueingModelQueueCount: l.queueingModelQueueCount)]
            } ?? []
            let several = (recommendations?.combinations.count ?? 0) > 1
            let label = recommendation?.combination.label
            run.openLoop = MeasuredOpenLoop(latencySLOMicroseconds: arrival.latencySLOMicroseconds, sloPercentile: arrival.sloPercentile, sizings: sizings, combination: several ? label : nil)
        }
        return PlanSource(waitSeconds: wait / 1e6, cpuSeconds: cpu / 1e6, run: run)
    }
}
