import Foundation
import PoolSizeModel
import Testing

@testable import PoolSizeOutput

/// Issue 31, findings 8 and 9: one rule for the directory `sweep --out` and `observe --out`
/// write (`ExportManager.claim`). A directory that holds no run was emptied of `pools/` and
/// overwritten by observe, and an observation (or a user's own files) overwritten by sweep,
/// without `--force`; a run of the other kind was replaced even with it. Each refusal leaves
/// every file as it was.
@Suite struct RunDirectoryClaimTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-claim-\(UUID())")

    /// A directory of the user's: `pools/worker.go` and four files named like a run's.
    func usersDirectory() throws -> URL {
        let directory = root.appendingPathComponent("v")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("pools"), withIntermediateDirectories: true)
        for (name, text) in Self.usersFiles {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    static let usersFiles = [
        "pools/worker.go": "code\n", "summary.csv": "mine\n", "report.md": "# mine\n", "machine.json": "{\"mine\":1}\n",
        "lowload.json": "{\"mine\":2}\n",
    ]

    /// The user's files, as they are now.
    func contents(_ directory: URL) -> [String: String] {
        var found: [String: String] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: directory.path) ?? NSEnumerator()
        where !RunDirectory.isDirectory(directory.appendingPathComponent(name)) {
            found[name] = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return found
    }

    static let foreignReason =
        "it is not empty and holds no run (lowload.json, machine.json, pools/, report.md and 1 more); choose a new or empty "
        + "directory, or pass `replaceRun` to write the run into it (files of the same names are replaced, nothing "
        + "else is touched)"

    @Test func aDirectoryOfOtherFilesIsRefusedByBothCommands() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try usersDirectory()
        let refusal = PoolSizeError.runDirectoryTaken(path: directory.path, reason: Self.foreignReason)
        #expect(throws: refusal) { try RunDirectory(directory).prepareForObservation(replace: false) }
        #expect(throws: refusal) { _ = try ExportManager(directory: directory, mode: .create) }
        #expect(refusal.exitCode == 73)
        #expect(contents(directory) == Self.usersFiles, "every file left as it was")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".lock").path))
    }

    /// With `--force` the observation is written into it: its own files replace those of the
    /// same names, `pools/worker.go` and the rest stay.
    @Test func forcedAnObservationWritesItsFilesAndTouchesNothingElse() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try usersDirectory()
        let run = RunDirectory(directory)
        try run.prepareForObservation(replace: true)
        let observation = try ObservationRunTests.savedRun()
        try run.save(observation)
        _ = try ReportWriter(
            runDirectory: directory, plotsDirectory: root.appendingPathComponent("plots"), renderer: FakeRenderer()
        ).writeObservationReport(observation)
        let after = contents(directory)
        for name in ["pools/worker.go", "summary.csv", "lowload.json"] { #expect(after[name] == Self.usersFiles[name]) }
        #expect(after["report.md"] != Self.usersFiles["report.md"])
        #expect(after["pools/worker.csv"] != nil)
        #expect(try run.loadObservation() == observation)
    }

    /// An observation replaced with `--force` takes its own files and pool CSVs along, and
    /// leaves a file of the user's in pools/ (and pools/ itself with it).
    @Test func aReplacedObservationTakesOnlyItsOwnFiles() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("o")
        let run = RunDirectory(directory)
        var first = try ObservationRunTests.savedRun()
        try run.save(first)
        _ = try ReportWriter(
            runDirectory: directory, plotsDirectory: root.appendingPathComponent("plots"), renderer: FakeRenderer()
        ).writeObservationReport(first)
        try "keep\n".write(to: directory.appendingPathComponent("pools/notes.txt"), atomically: true, encoding: .utf8)
        try "keep\n".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(FileManager.default.fileExists(atPath: run.poolCSV(stem: "feeder").path))
        try run.prepareForObservation(replace: true)
        first.observation.pools.removeAll { $0.name == "feeder" }
        try run.save(first)
        #expect(!FileManager.default.fileExists(atPath: run.poolCSV(stem: "feeder").path), "the old pool's CSV went")
        #expect(contents(directory)["pools/notes.txt"] == "keep\n")
        #expect(contents(directory)["notes.txt"] == "keep\n")
    }

    /// A run of the other kind is refused, with `--force` too: neither kind replaces the other.
    @Test func neitherKindReplacesTheOther() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let observed = root.appendingPathComponent("observed")
        try RunDirectory(observed).save(try ObservationRunTests.savedRun())
        let before = contents(observed)
        let observation = PoolSizeError.runDirectoryTaken(
            path: observed.path,
            reason:
                "it holds an observation (observation.json), which a sweep does not replace, even with `replaceRun`; "
                + "choose another `runDirectory`, or remove that directory first")
        #expect(throws: observation) { _ = try ExportManager(directory: observed, mode: .create) }
        #expect(throws: observation) { _ = try ExportManager(directory: observed, mode: .replace) }
        #expect(contents(observed) == before)

        let swept = root.appendingPathComponent("swept")
        _ = try ExportManager(directory: swept)
        let sweep = PoolSizeError.runDirectoryTaken(
            path: swept.path,
            reason:
                "it holds a sweep's run (trials.csv), which an observation does not replace, even with `replaceRun`; "
                + "choose another `runDirectory`, or remove that directory first")
        #expect(throws: sweep) { try RunDirectory(swept).prepareForObservation(replace: false) }
        #expect(throws: sweep) { try RunDirectory(swept).prepareForObservation(replace: true) }
        #expect(
            throws: PoolSizeError.runDirectoryTaken(
                path: swept.path,
                reason:
                    "a run directory is already there (it has trials.csv); pass `replaceRun` to replace it, or "
                    + "`resumeRun` \(swept.path) to continue it")
        ) { _ = try ExportManager(directory: swept, mode: .create) }
    }

    /// Missing, empty, or holding only the lock of a sweep that stopped before its first file
    /// and empty folders (`plotsDirectory` made inside it): nothing to refuse.
    @Test func newAndEmptyDirectoriesAreFresh() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("fresh")
        #expect(try ExportManager.claim(directory, for: .observation, mode: .create) == .fresh)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("plots/x"), withIntermediateDirectories: true)
        try "1\n".write(to: directory.appendingPathComponent(".lock"), atomically: true, encoding: .utf8)
        #expect(try ExportManager.claim(directory, for: .sweep, mode: .create) == .fresh)
        #expect(try ExportManager.claim(directory, for: .observation, mode: .create) == .fresh)
        _ = try ExportManager(directory: directory)
        #expect(try ExportManager.claim(directory, for: .sweep, mode: .resume) == .sameKind)
    }
}
