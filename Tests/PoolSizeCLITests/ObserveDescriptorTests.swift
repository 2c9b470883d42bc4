import Foundation
import Testing

/// A target with more threads than descriptors the observer may keep open: under a limit of
/// 256 descriptors, a Python program of 400 waiting threads (three /proc files each) is still
/// seen whole. It was reported as 83 threads, exit 0, without a word.
@Suite(.serialized) struct ObserveDescriptorTests {
    @Test func everyThreadIsReadPastTheDescriptorLimit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-fds-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("threads.py")
        try """
        import threading, time
        ready = threading.Event()
        threads = [threading.Thread(target=ready.wait, daemon=True) for _ in range(400)]
        for thread in threads: thread.start()
        time.sleep(60)
        """.write(to: script, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("observation")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = [
            "--nofile=256:256", "--", EndToEndTests.binary.path, "observe", "--duration", "1s", "--out", out.path,
            "--", "python3", script.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let processExit = process.awaitExit()
        #expect(processExit.code == 0)
        let data = try Data(contentsOf: out.appendingPathComponent("observation.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pools = try #require(object["pools"] as? [[String: Any]])
        let threads = pools.compactMap { $0["threads"] as? Int }.reduce(0, +)
        // The 400 waiting threads and the main thread.
        #expect(threads == 401, "\(pools.map { ($0["name"] ?? "", $0["threads"] ?? "") })")
    }
}
