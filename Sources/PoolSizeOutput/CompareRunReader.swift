import Foundation
import PoolSizeModel
import PoolSizeAnalysis

/// What `compare` needs of a run directory, read through `RunDirectory`: every repetition's
/// throughput and p99 latency grouped by configuration, and the cores and workload spec from
/// `machine.json`. Both files are required: without `machine.json` a comparison could not tell
/// a slower build from a smaller machine.
package enum CompareRunReader {
    /// - Parameters:
    ///   - path: a run directory, or its `trials.csv`.
    ///   - warn: told what reading had to work around (a torn last line), one line each.
    package static func load(_ path: String, warn: (String) -> Void = { _ in }) throws(PoolSizeError) -> RunSamples {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .inputNotFound(
                path: path, hint: "pass a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        let directory = RunDirectory(path: path)
        // An observation has no trials to compare; say so rather than report trials.csv missing.
        if directory.holdsObservation {
            throw .invalidInput(
                path: directory.url.path,
                message:
                    "it holds an observation (observation.json, written by 'poolsize observe --out'), which compare "
                    + "cannot use: compare sets two sweeps' trials side by side; pass a sweep's run directory "
                    + "(results/<run-id>)")
        }
        let run = try directory.load()
        run.warnings.forEach(warn)
        guard let info = run.info, let plan = info.plan else {
            throw .inputNotFound(
                path: directory.url(.machine).path,
                hint:
                    "compare checks the cores and workload a run records there; pass a run directory written by 'poolsize sweep'"
            )
        }
        // The run's answer: recommendation.json where it has one, else computed from the trials.
        var sizing: [Combination: Sizing] = [:]
        let analysis = RunAnalysis(run)
        for curve in analysis.curves {
            if let r = curve.recommendation, let s = Sizing(r, sizes: curve.sizes) { sizing[curve.combination] = s }
        }
        var result = RunSamples(
            runID: info.runID,
            cores: info.machine?.cores.effective,
            workload: plan.spec, samples: samples(run.records), sizing: sizing,
            openLoop: analysis.comparisonSamples)
        if case let .database(setup) = plan.target { result.scriptSHA256 = setup.scriptSHA256 }
        return result
    }

    /// Repetitions per configuration; undefined figures (`nan`) are kept, and dropped by the
    /// comparison.
    package static func samples(_ records: [TrialRecord]) -> [RunConfiguration: RunSamples.Samples] {
        var result: [RunConfiguration: RunSamples.Samples] = [:]
        for r in records {
            let key = RunConfiguration(r)
            result[key, default: RunSamples.Samples()].throughputPerSecond.append(r.throughputPerSecond)
            result[key, default: RunSamples.Samples()].latencyP99Microseconds.append(r.latency.p99)
        }
        return result
    }
}
