import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// Run files that decode but cannot have been written by a sweep, and paths that are no files:
/// each is refused in one line naming the file and what is wrong, never read as a figure and
/// never reported in Foundation's words.
@Suite struct RunDirectoryDamageTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/run-io")

    /// A copy of the run-io fixture with `edit` applied to it.
    static func damaged(_ edit: (URL) throws -> Void) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-damage-\(UUID())")
        try FileManager.default.copyItem(at: fixture, to: dir)
        try edit(dir)
        return dir
    }

    /// Rewrites the JSON object in `file` through `change`.
    static func json(_ file: String, _ change: @escaping (inout [String: Any]) -> Void) -> (URL) throws -> Void {
        { dir in
            let url = dir.appendingPathComponent(file)
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            change(&object)
            try JSONSerialization.data(withJSONObject: object).write(to: url)
        }
    }

    static func text(_ file: String, _ content: String) -> (URL) throws -> Void {
        { dir in try content.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8) }
    }

    static let damaged =
        "the file is damaged: rerun the sweep, or delete the file to report from trials.csv alone"
    static var cases: [(String, String, (URL) throws -> Void)] {
        [
            (
                "lowload.json", "key 'cpu_microseconds_per_task' is -1000, which no measurement gives; \(damaged)",
                json("lowload.json") { $0["cpu_microseconds_per_task"] = -1000 }
            ),
            (
                "lowload.json", "key 'cpu_microseconds_per_task' is 0, which no measurement gives; \(damaged)",
                json("lowload.json") { $0["cpu_microseconds_per_task"] = 0 }
            ),
            (
                "machine.json", "key 'plan.cores' is -4, where a sweep writes 1 or more; \(damaged)",
                json("machine.json") { object in
                    var plan = object["plan"] as! [String: Any]
                    plan["cores"] = -4
                    object["plan"] = plan
                }
            ),
            (
                "machine.json", "key 'machine' missing; expected the schema in results/README.md",
                json("machine.json") { $0["machine"] = nil }
            ),
            (
                "machine.json", "key 'schema_version' is 0; poolsize writes 1 (the file is damaged)",
                json("machine.json") { $0["schema_version"] = 0 }
            ),
            (
                "machine.json",
                "key 'schema_version' has the wrong type (a whole number such as 1); expected the schema in results/README.md",
                json("machine.json") { $0["schema_version"] = "1" }
            ),
            (
                "lowload.json",
                "key 'tasks' holds a number beyond the whole numbers a run file holds (±2^53); the file is damaged: rerun the sweep",
                json("lowload.json") { $0["tasks"] = 1e30 }
            ),
            (
                "lowload.json",
                "holds a JSON array, not the object poolsize writes; expected the schema in results/README.md",
                text("lowload.json", "[]")
            ),
            (
                "lowload.json", "is a directory, not the file poolsize writes there; move it away or rerun",
                { dir in
                    let url = dir.appendingPathComponent("lowload.json")
                    try FileManager.default.removeItem(at: url)
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                }
            ),
            (
                "lowload.json", "is not a regular file (a device, a pipe or a socket); poolsize reads files",
                { dir in
                    let url = dir.appendingPathComponent("lowload.json")
                    try FileManager.default.removeItem(at: url)
                    try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
                }
            ),
            (
                "trials.csv", "empty file; expected a header row naming the columns in results/README.md",
                text("trials.csv", "")
            ),
        ]
    }

    @Test(arguments: 0..<cases.count)
    func damageIsRefusedInOneLine(index: Int) throws {
        let (file, message, edit) = Self.cases[index]
        let dir = try Self.damaged(edit)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: PoolSizeError.invalidInput(path: dir.appendingPathComponent(file).path, message: message)) {
            try RunDirectory(dir).load()
        }
    }

    /// A column named twice is refused, not read from its first copy.
    @Test func aDuplicatedColumnIsRefused() throws {
        let dir = try Self.damaged { dir in
            let url = dir.appendingPathComponent("trials.csv")
            let lines = try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            let edited = [lines[0] + ",run_id"] + lines.dropFirst().map { $0.isEmpty ? $0 : $0 + ",x" }
            try edited.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.appendingPathComponent("trials.csv").path,
                message: "column 'run_id' appears twice in the header; a file poolsize writes names each column once")
        ) {
            try RunDirectory(dir).load()
        }
    }

    /// A trials.csv larger than any sweep writes is refused before it is read (reading holds
    /// about 16 copies of it).
    @Test func anOversizedFileIsRefusedBeforeItIsRead() throws {
        let dir = try Self.damaged { dir in
            let url = dir.appendingPathComponent("trials.csv")
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(RunDirectory.maximumFileBytes) + 1)
            try handle.close()
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.appendingPathComponent("trials.csv").path,
                message:
                    "is 64 MiB, more than the 64 MiB a run file can be (some 100,000 trials); it is not a poolsize run's, or split the sweep"
            )
        ) {
            try RunDirectory(dir).load()
        }
    }

    /// The fixture itself loads: the checks refuse damage, not runs.
    @Test func theUndamagedFixtureLoads() throws {
        let run = try RunDirectory(Self.fixture).load()
        #expect(run.records.count == 16 && run.lowLoad != nil)
    }
}
