import Foundation
import Testing

/// Issue 31, the hostile battery against `observe`: a signal at each phase ends it promptly with
/// exit 130. During `--counter`'s first read the counter is stopped at once (it waited for the
/// watchdog and exited 64); during sampling the observation is kept and marked interrupted; while
/// the charts render, gnuplot is stopped with observe, which says where its files are. The tests
/// wait for the process they interrupt to be where they mean, never for a time.
@Suite(.serialized) struct ObserveInterruptTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observe-int-\(UUID())")
    let marker = "30.\(Int.random(in: 100_000...999_999))"

    /// The `sleep` processes whose arguments hold the marker: the counter's, the command's or the
    /// fake gnuplot's sleep itself, never observe or its guardian, whose own arguments hold the
    /// marker from the start (a signal sent then would reach observe before it is watching).
    func marked() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }.filter {
            let arguments = ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "")
                .split(separator: "\u{0}").map(String.init)
            return arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent == "sleep" } == true
                && arguments.dropFirst().contains(marker)
        }
    }

    /// Runs observe, sends `signal` once a process holding the marker runs, and returns how it ended.
    func interrupt(_ arguments: [String], with signal: Int32 = SIGINT, path: String? = nil) throws -> (
        code: Int32, stdout: String, stderr: String, reached: Bool
    ) {
        nonisolated(unsafe) var reached = false
        let result = try ObserveCommandTests.run(arguments, timeoutSeconds: 60, environment: path.map { ["PATH": $0] })
        {
            process in
            let deadline = Date().addingTimeInterval(30)
            while marked().isEmpty && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.02) }
            reached = !marked().isEmpty
            kill(process.processIdentifier, signal)
        }
        return (result.code, result.stdout, result.stderr, reached)
    }

    func waitForNoneMarked() -> [String] {
        let deadline = Date().addingTimeInterval(20)
        while !marked().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return marked()
    }

    @Test func ctrlCDuringTheCountersFirstReadStopsAtOnce() throws {
        let result = try interrupt([
            "observe", "--duration", "60s", "--counter", "sh -c 'sleep \(marker); echo 1'", "--", "/bin/sleep", "60",
        ])
        #expect(result.reached, "the counter never started")
        #expect(result.code == 130, "\(result.stderr)")
        #expect(result.stderr == "observe: interrupted before the first sweep: nothing was measured\n")
        #expect(waitForNoneMarked().isEmpty, "the counter outlived observe")
    }

    @Test func anInterruptedObservationIsMarkedInItsFiles() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("run")
        let result = try interrupt([
            "observe", "--duration", "60s", "--out", out.path, "--plots", scratch.appendingPathComponent("plots").path,
            "--", "/bin/sleep", marker,
        ])
        #expect(result.reached && result.code == 130, "\(result.stderr)")
        let json = try String(contentsOf: out.appendingPathComponent("observation.json"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["interrupted"] as? Bool == true)
        #expect(object["planned_seconds"] as? Double == 60)
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("**Interrupted:** the observation was cut short after "))
        #expect(report.contains(" of the 60 s asked for (Ctrl-C or SIGTERM); the figures cover that time."))
        #expect(result.stdout.contains("\ninterrupted: the observation was cut short after "))
    }

    /// gnuplot is a script that sleeps: observe is then rendering for sure when the signal comes.
    @Test(arguments: [SIGINT, SIGTERM]) func aSignalWhileTheChartsRenderStopsGnuplot(signal: Int32) throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bin = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("gnuplot")
        try "#!/bin/sh\nexec sleep \(marker)\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let out = scratch.appendingPathComponent("run")
        // A shell spinning does work, so its pool gets a chart.
        let result = try interrupt(
            [
                "observe", "--duration", "1s", "--out", out.path, "--plots",
                scratch.appendingPathComponent("plots").path, "--", "/bin/sh", "-c", "while :; do :; done",
            ], with: signal, path: "\(bin.path):/usr/bin:/bin")
        #expect(result.reached, "gnuplot never started: \(result.stderr)")
        #expect(result.code == 130, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "observe: interrupted while the charts rendered: the observation is in \(out.path)/observation.json "
                    + "and summary.txt; 'poolsize report \(out.path)' draws the charts and writes the report from it\n"),
            "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("observation.json").path))
        #expect(waitForNoneMarked().isEmpty, "gnuplot left running")
    }
}
