import Foundation
import Testing

/// `poolsize export`: end to end on the fixture run, and its one-line errors.
struct ExportCommandTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/machines/small").path

    @Test func exportsToStdoutAndToAFile() throws {
        let stdout = try EndToEndTests.run(["export", Self.fixture, "--to", "openmetrics"])
        #expect(stdout.code == 0)
        #expect(stdout.stdout.hasSuffix("# EOF\n"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-export-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = try EndToEndTests.run(["export", Self.fixture, "--to", "github-benchmark", "--output", file.path])
        #expect(written.code == 0 && written.stdout.isEmpty)
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        #expect(entries?.first?["name"] as? String == "io queue-pool/default/none N=1 throughput")
    }

    @Test(arguments: [
        (
            ["export", "/nonexistent/run", "--to", "openmetrics"], Int32(66),
            "error: /nonexistent/run: not found; pass a run directory written by 'poolsize sweep' (results/<run-id>)\n"
        ),
        (
            ["export", "RUN", "--to", "csv"], 64,
            "error: The value 'csv' is invalid for '--to <to>'. Please provide one of 'github-benchmark', 'github-benchmark-smaller' or 'openmetrics'. (see 'poolsize export --help')\n"
        ),
        (["export", "RUN"], 64, "error: Missing expected argument '--to <to>' (see 'poolsize export --help')\n"),
    ])
    func errorsAreOneLine(arguments: [String], code: Int32, message: String) throws {
        let result = try EndToEndTests.run(arguments.map { $0 == "RUN" ? Self.fixture : $0 })
        #expect(result.code == code)
        #expect(result.stderr == message)
    }

    /// A write that fails is one line naming --output and the system's reason, exit 73, never
    /// exit 0; a device is written into, never replaced by a file.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFailedWriteNamesOutputAndTheReason() throws {
        let full = try EndToEndTests.run(["export", Self.fixture, "--to", "openmetrics", "--output", "/dev/full"])
        #expect(full.code == 73)
        #expect(
            full.stderr
                == "error: --output: cannot write /dev/full: No space left on device; free space on that file system, or write elsewhere\n"
        )
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    /// A FIFO is written into (a reader gets the export), not replaced by a file.
    @Test func aFIFOIsWrittenInto() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-export-\(UUID()).fifo")
        defer { try? FileManager.default.removeItem(at: fifo) }
        #expect(mkfifo(fifo.path, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if let reader = FileHandle(forReadingAtPath: fifo.path) { received = reader.readDataToEndOfFile() }
            done.signal()
        }
        let written = try EndToEndTests.run(["export", Self.fixture, "--to", "openmetrics", "--output", fifo.path])
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(written.code == 0 && written.stderr.isEmpty, "\(written.stderr)")
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("# EOF\n"))
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    /// An --output that cannot be created names --output, not the sweep's --out or --plots.
    @Test func anUnwritableOutputNamesOutput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-export-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try "a file\n".write(to: file, atomically: true, encoding: .utf8)
        let target = file.appendingPathComponent("out.json").path
        let result = try EndToEndTests.run(["export", Self.fixture, "--to", "openmetrics", "--output", target])
        #expect(result.code == 73)
        #expect(
            result.stderr
                == "error: --output: cannot write \(target): \(file.path) is a file, not a directory; choose a writable directory\n"
        )
    }
}
