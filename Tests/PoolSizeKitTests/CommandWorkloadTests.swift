import Dispatch
import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// What a failed `--exec` task says, and what it is charged.
@Suite struct CommandWorkloadTests {
    /// Clocks whose thread CPU reads count up by 1 ms each, and which append a line to `marker`
    /// on their second read: a stderr line read after that read would end with it.
    final class CountingClocks: ScriptedClocks, @unchecked Sendable {
        let reads = Atomic<Int>(0)
        let marker: URL
        init(marker: URL) { self.marker = marker }
        func wallNanoseconds() -> UInt64 { 0 }
        func threadCPUNanoseconds() -> UInt64 {
            let n = reads.wrappingAdd(1, ordering: .relaxed).newValue
            if n == 2, let handle = try? FileHandle(forWritingTo: marker) {
                handle.seekToEndOfFile()
                handle.write(Data("read after the task's CPU was taken\n".utf8))
                try? handle.close()
            }
            return UInt64(n) * 1_000_000
        }
        func processUsage() -> ProcessUsage {
            ProcessUsage(
                cpuNanoseconds: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0, maxRSSKilobytes: 0)
        }
        func machineBusyNanoseconds() -> UInt64? { nil }
    }

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-cmd-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The task's C is taken when the command is reaped: reading its stderr for the message
    /// comes after (the clocks' second read marks the file, and the message ends with the mark).
    /// Before, the pool thread's CPU was read after the stderr file was read and decoded.
    @Test func readingStderrIsNotTheTasksCPU() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try CommandSource(
            arguments: ["/bin/sh", "-c", "echo first >&2; exit 3"], outputDirectory: directory)
        let clocks = CountingClocks(marker: directory.appendingPathComponent("task-0.err"))
        let outcome = CommandWorkload(source: source, clocks: clocks).execute(task: 0)
        #expect(
            outcome.cpuNanoseconds == 1_000_000, "one step between the read before the spawn and the one after the reap"
        )
        #expect(
            outcome.failure
                == "/bin/sh -c 'echo first >&2; exit 3' exited with status 3; its last stderr line: 'read after the task's CPU was taken'"
        )
        #expect(clocks.reads.load(ordering: .relaxed) == 2)
        #expect(
            !CommandWorkload(source: source, clocks: clocks).measuresOwnCPU, "scripted clocks: the trial reads its own")
        #expect(CommandWorkload(source: source).measuresOwnCPU)
    }

    /// stderr that is not UTF-8 is still the command's last words, not "nothing".
    @Test func stderrThatIsNotUTF8IsShown() throws {
        let source = try CommandSource(arguments: [
            "/bin/sh", "-c", "printf 'ok\\n\\377\\376 bad bytes\\n' >&2; exit 2",
        ])
        let outcome = CommandWorkload(source: source).execute(task: 7)
        #expect(
            outcome.failure
                == "/bin/sh -c 'printf '\\''ok\\n\\377\\376 bad bytes\\n'\\'' >&2; exit 2' exited with status 2; its last stderr line: '\u{FFFD}\u{FFFD} bad bytes'"
        )
    }

    /// Only the end of a long stderr is read, and the line quoted is cut.
    @Test func aLongStderrIsCut() throws {
        let source = try CommandSource(arguments: [
            "/bin/sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x >&2; exit 1",
        ])
        let failure = try #require(CommandWorkload(source: source).execute(task: 1).failure)
        #expect(failure.hasSuffix("; its last stderr line: '\(String(repeating: "x", count: 200))…'"))
    }

    @Test func silenceIsSaid() throws {
        let source = try CommandSource(arguments: ["/bin/false"])
        #expect(
            CommandWorkload(source: source).execute(task: 2).failure
                == "/bin/false exited with status 1; it wrote nothing on stderr")
    }

    /// Whether this process may mount a small tmpfs (root, outside a restricted container).
    static let canMountTmpfs: Bool = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-mount-\(UUID())")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        guard shell("mount -t tmpfs -o size=16k tmpfs '\(directory.path)' 2>/dev/null") == 0 else { return false }
        return shell("umount '\(directory.path)'") == 0
    }()

    /// --exec-output on a full file system: what the command wrote on stderr was lost, and the
    /// message says so instead of "it wrote nothing". Needs a small tmpfs (root).
    @Test(.enabled(if: canMountTmpfs)) func aFullDiskIsNamed() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(Self.shell("mount -t tmpfs -o size=16k tmpfs '\(directory.path)'") == 0)
        defer { _ = Self.shell("umount '\(directory.path)'") }
        _ = Self.shell("head -c 1000000 /dev/zero > '\(directory.path)/fill' 2>/dev/null")
        let source = try CommandSource(
            arguments: ["/bin/sh", "-c", "echo disk full >&2; exit 4"], outputDirectory: directory)
        let failure = CommandWorkload(source: source).execute(task: 3).failure
        #expect(
            failure
                == "/bin/sh -c 'echo disk full >&2; exit 4' exited with status 4; what it wrote on stderr was lost: \(directory.path) is full (No space left on device)"
        )
    }

    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
