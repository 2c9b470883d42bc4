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

    /// The files an observation writes besides its pools' CSV files.
    static let observationFiles: [File] = [.machine, .observation, .summaryText, .reportMarkdown, .reportHTML]

    /// Checks, before observing, that the directory can take an observation: the rule every
    /// run directory follows (`ExportManager.claim`: empty or new; an observation there only
    /// with `replace`, `--force`; other files only with `replace`, and then left alone), and
    /// writable. Both refusals exit 73.
    package func prepareForObservation(replace: Bool) throws(PoolSizeError) {
        _ = try ExportManager.claim(url, for: .observation, mode: replace ? .replace : .create)
        try AtomicFile.probeWritable(url)
    }

    /// Writes `run`: machine.json, observation.json and summary.txt (the console table). An
    /// observation that was there before (which `prepareForObservation` allowed to be replaced)
    /// goes first, its files and its own pools' CSV files only, so none of them contradicts this
    /// one and nothing else in the directory is touched. The CSV files, charts and report
    /// follow from `ReportWriter.writeObservationReport`.
    package func save(_ run: ObservationRun) throws(PoolSizeError) {
        try AtomicFile.createDirectory(url)
        if holdsObservation {
            let pools = url.appendingPathComponent(Self.poolsFolder)
            for stem in (try? loadObservation())?.fileStems.values.sorted() ?? [] {
                try? FileManager.default.removeItem(at: poolCSV(stem: stem))
            }
            // Only when nothing else is left in it (rmdir fails on a folder that is not empty).
            _ = rmdir(pools.path)
            for file in Self.observationFiles { try? FileManager.default.removeItem(at: url(file)) }
        }
        if let info = run.info { try AtomicFile.write(JSONExport.serialize(info), to: url(.machine)) }
        try AtomicFile.write(ObservationJSON.render(run.observation), to: url(.observation))
        try AtomicFile.write(ObservationTable.render(run.observation), to: url(.summaryText))
    }

    /// The observation in this directory.
    package func loadObservation() throws(PoolSizeError) -> ObservationRun {
        guard Self.isDirectory(url) else {
            throw Self.notADirectory(url, hint: "pass a run directory written by 'poolsize observe --out DIR'")
        }
        guard let observation = try decode(Observation.self, .observation) else {
            throw .inputNotFound(
                path: url(.observation).path,
                hint:
                    "an observation's run directory holds observation.json; pass one written by 'poolsize observe "
                    + "--out DIR'"
            )
        }
        if let fault = ObservationValues.firstFault(observation) {
            throw .invalidInput(
                path: url(.observation).path,
                message:
                    "key '\(fault.key)' is \(UnitFormat.number(fault.value)), which no observation gives "
                    + "(\(fault.expected)); the file is damaged: observe again")
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
