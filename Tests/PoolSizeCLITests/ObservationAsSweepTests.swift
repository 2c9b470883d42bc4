import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import PoolSizeOutput
import Testing

/// Issue 31, hostile readers: an observation's run directory given where a sweep's belongs, a
/// sweep's files beside an observation's machine.json, and damaged files, each refused in one
/// line that says what the directory holds and what to pass instead, with the code of damaged
/// input (65).
@Suite struct ObservationAsSweepTests {
    static let observation = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/extremes/observation")

    /// A copy of the observation fixture (`report` would write its report into the fixture).
    static func copy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-as-sweep-\(UUID())")
        try FileManager.default.copyItem(at: observation, to: dir)
        return dir
    }

    /// `compare` said the observation was a sweep directory missing trials.csv (66).
    @Test func compareNamesTheObservation() throws {
        let dir = try Self.copy()
        let base = try FixtureRun(id: "base", rows: CompareCommandTests.baseRows)
        defer {
            try? FileManager.default.removeItem(at: dir)
            base.remove()
        }
        let message =
            "error: \(dir.path): it holds an observation (observation.json, written by 'poolsize observe --out'), "
            + "which compare cannot use: compare sets two sweeps' trials side by side; pass a sweep's run directory "
            + "(results/<run-id>)"
        #expect(runCLI(["compare", base.path, dir.path]) == (65, [message]))
        #expect(runCLI(["compare", dir.path, base.path]) == (65, [message]))
    }

    /// `plan --from` said the observation had no lowload.json (66).
    @Test func planFromNamesTheObservationAndTheFlagsToUse() throws {
        let dir = try Self.copy()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            runCLI(["plan", "--from", dir.path, "--target-rate", "100/s"]) == (
                65,
                [
                    "error: \(dir.path): it holds an observation (observation.json, written by 'poolsize observe "
                        + "--out'), which --from cannot use: --from takes a sweep's run directory (results/<run-id>); "
                        + "or declare the observed pool's W and C per task with --wait and --cpu (observe prints "
                        + "them on its 'per task' line when given --throughput or --counter)"
                ]
            ))
    }

    /// A sweep's lowload.json beside an observation's machine.json is refused naming machine.json
    /// (it planned on the observation's machine and exited 0).
    @Test func planFromRefusesAnObservationsMachineJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-as-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try JSONExport.serialize(
            LowLoadEstimate(
                tasks: 50, seconds: 0.5, cpuMicrosecondsPerTask: 5000, waitMicrosecondsPerTask: 40000, ratio: nil)
        ).write(to: dir.appendingPathComponent("lowload.json"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Self.observation.appendingPathComponent("machine.json"), to: dir.appendingPathComponent("machine.json"))
        #expect(
            runCLI(["plan", "--from", dir.path, "--target-rate", "100/s"]) == (
                65,
                [
                    "error: \(dir.appendingPathComponent("machine.json").path): it records an observation, not a "
                        + "sweep's plan, so it is not this run's; pass the sweep's run directory, or delete the file "
                        + "to plan from lowload.json and recommendation.json alone"
                ]
            ))
    }

    /// `report` on a sweep, and on an observation, whose machine.json lacks `machine`: refused
    /// as any missing key is, 65 (it was read, and the report said nothing of the machine).
    @Test func aMachineJSONWithoutTheMachineIsDamaged() throws {
        let sweep = try FixtureRun(id: "base", rows: CompareCommandTests.baseRows)
        let observed = try Self.copy()
        defer {
            sweep.remove()
            try? FileManager.default.removeItem(at: observed)
        }
        for dir in [sweep.url, observed] {
            let url = dir.appendingPathComponent("machine.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            object["machine"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: url)
            #expect(
                runCLI(["report", dir.path, "--plots", dir.appendingPathComponent("plots").path]) == (
                    65, ["error: \(url.path): key 'machine' missing; expected the schema in results/README.md"]
                ))
        }
    }

    /// `report` on an observation of a negative duration: 65, naming the key and the value.
    @Test func anImpossibleObservationFigureIsDamaged() throws {
        let dir = try Self.copy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("observation.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(
            of: "\"duration_seconds\" : 1.5026960739996866", with: "\"duration_seconds\" : -7"
        )
        .write(to: url, atomically: true, encoding: .utf8)
        #expect(
            runCLI(["report", dir.path, "--plots", dir.appendingPathComponent("plots").path]) == (
                65,
                [
                    "error: \(url.path): key 'duration_seconds' is -7, which no observation gives (from 0 to 172800); "
                        + "the file is damaged: observe again"
                ]
            ))
    }
}
