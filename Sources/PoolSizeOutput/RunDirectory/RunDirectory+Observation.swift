import Foundation
import PoolSizeModel
import PoolSizeObserve

extension RunDirectory {
    /// Whether the directory holds an observation (observation.json and no trials.csv).
    package var holdsObservation: Bool {
        FileManager.default.fileExists(atPath: url(.observation).path)
            && !FileManager.default.fileExists(atPath: url(.trials).path)
    }

    /// Where pool `stem`'s CSV is.
    package func poolCSV(stem: String) -> URL {
        url.appendingPathComponent(Self.poolsFolder).appendingPathComponent(stem + ".csv")
    }

    /// Checks, before observing, that the directory can take an observation: writable, and not
    /// holding a run already unless `replace` (`--force`).
    package func prepareForObservation(replace: Bool) throws(PoolSizeError) {
        try AtomicFile.checkWritable(url, flag: "--out")
        let held = [File.trials, File.observation].first { FileManager.default.fileExists(atPath: url($0).path) }
        if let held, !replace {
            throw .invalidOption(
                flag: "--out",
                message:
                    "\(url.path) already holds a run (\(held.rawValue)); pass --force to replace it, or choose another "
                    + "--out"
            )
        }
    }

    /// Writes `run`: machine.json, observation.json and summary.txt (the console table); a
    /// run that was there before goes first, so none of its files contradicts this one. The
    /// CSV files, charts and report follow from `ReportWriter.writeObservationReport`.
    package func save(_ run: ObservationRun) throws(PoolSizeError) {
        try AtomicFile.createDirectory(url)
        for file in File.allCases { try? FileManager.default.removeItem(at: url(file)) }
        try? FileManager.default.removeItem(at: url.appendingPathComponent(Self.poolsFolder))
        if let info = run.info { try AtomicFile.write(JSONExport.serialize(info), to: url(.machine)) }
        try AtomicFile.write(ObservationJSON.render(run.observation), to: url(.observation))
        try AtomicFile.write(ObservationTable.render(run.observation), to: url(.summaryText))
    }

    /// The observation in this directory.
    package func loadObservation() throws(PoolSizeError) -> ObservationRun {
        guard Self.isDirectory(url) else {
            throw .inputNotFound(path: url.path, hint: "pass a run directory written by 'poolsize observe --out DIR'")
        }
        guard let observation = try decode(Observation.self, .observation) else {
            throw .inputNotFound(
                path: url(.observation).path,
                hint:
                    "an observation's run directory holds observation.json; pass one written by 'poolsize observe "
                    + "--out DIR'"
            )
        }
        let info = try decode(RunInfo.self, .machine)
        if info?.plan != nil {
            throw .invalidInput(
                path: url(.machine).path,
                message:
                    "it records a sweep's plan, not an observation; pass the observation's run directory, or delete the file"
            )
        }
        return ObservationRun(
            runID: info?.runID ?? url.standardizedFileURL.lastPathComponent, info: info, observation: observation)
    }
}
