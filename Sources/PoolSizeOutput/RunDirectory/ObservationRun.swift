import Foundation
import PoolSizeModel
import PoolSizeObserve

/// The run directory of an observation (`poolsize observe --out DIR`), as written and read:
/// the observation and how it was asked for. `report`, `plot` and `export` read it through
/// `RunDirectory.loadObservation()`, which `observe` wrote through `RunDirectory.save(_:)`.
package struct ObservationRun: Equatable, Sendable {
    /// The run's id (`20261124-101500-observe-nginx`).
    package var runID: String
    /// `machine.json`: the command line, seed, version and machine; nil when missing.
    package var info: RunInfo?
    /// `observation.json`.
    package var observation: Observation

    /// A run.
    package init(runID: String, info: RunInfo?, observation: Observation) {
        self.runID = runID
        self.info = info
        self.observation = observation
    }

    /// The observed program's name: the last path component of its command's first word, or
    /// `pid N` when the command line was unreadable.
    package var program: String {
        let first = observation.target.command.split(separator: " ").first.map(String.init) ?? ""
        let name = URL(fileURLWithPath: first).lastPathComponent
        return first.isEmpty || name.isEmpty ? "pid \(observation.target.pid)" : name
    }

    /// `nginx (pid 4242), 2 cores, 2026-11-24`: the line every chart title and the report carry.
    package var headline: String {
        var parts = [
            program == "pid \(observation.target.pid)" ? program : "\(program) (pid \(observation.target.pid))"
        ]
        let cores = observation.cores.effective
        parts.append("\(cores) \(cores == 1 ? "core" : "cores")")
        if let date = RunData(runID: runID, records: []).date { parts.append(date) }
        return parts.joined(separator: ", ")
    }

    /// Each pool's file stem for its CSV and chart, by pool name: the name with anything but
    /// ASCII letters, digits, `-`, `_` and `.` replaced by `_` (a thread can name itself `../x`
    /// or hold a line break), at most 48 characters, made unique with `-2`, `-3`… in pool order.
    package var fileStems: [String: String] {
        var stems: [String: String] = [:], taken = Set<String>()
        for pool in observation.pools {
            var stem = String(
                pool.name.prefix(48).map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" }
            )
            if stem.isEmpty || stem.hasPrefix(".") { stem = "_" + stem }
            var unique = stem, suffix = 2
            while taken.contains(unique) {
                unique = "\(stem)-\(suffix)"
                suffix += 1
            }
            taken.insert(unique)
            stems[pool.name] = unique
        }
        return stems
    }
}
