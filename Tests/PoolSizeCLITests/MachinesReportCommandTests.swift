import Foundation
@testable import PoolSizeCLI
import Testing

/// `poolsize report RUN_DIR RUN_DIR… --out DIR` on the hand-made runs of Tests/Fixtures/machines,
/// in-process: the argument rules, the refusal of mixed workloads, and the files written.
@Suite(.serialized) struct MachinesReportCommandTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/machines/" + name).path
    }

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-machines-\(UUID())")

    @Test func severalRunsNeedOut() {
        let result = runCLI(["report", Self.fixture("small"), Self.fixture("large")])
        #expect(result.code == 64)
        #expect(
            result.errors == [
                "error: --out: is required with several run directories; name a directory for the side-by-side report, e.g. --out machines"
            ])
    }

    @Test func oneRunTakesNoOut() {
        let result = runCLI(["report", Self.fixture("small"), "--out", scratch.path])
        #expect(result.code == 64)
        #expect(
            result.errors == [
                "error: --out: is for several run directories; a single run's report is written into the run directory itself"
            ])
    }

    @Test func plotsIsForOneRun() {
        let result = runCLI([
            "report", Self.fixture("small"), Self.fixture("large"), "--out", scratch.path, "--plots", scratch.path,
        ])
        #expect(result.code == 64)
        #expect(
            result.errors == [
                "error: --plots: applies to a single run directory; with several, the chart is written into --out DIR"
            ])
    }

    @Test func mixedWorkloadsAreRefusedWithExit3() {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = runCLI(["report", Self.fixture("small"), Self.fixture("cpu"), "--out", scratch.path])
        #expect(result.code == 3)
        #expect(
            result.errors == [
                "error: runs cannot be compared: the runs are of different workloads (small: io, cpu: cpu); sweep the same workload on each machine, or pass --allow-mixed to put them side by side anyway"
            ])
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("report.md").path))
    }

    @Test func allowMixedWritesTheReport() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = runCLI([
            "report", Self.fixture("small"), Self.fixture("cpu"), "--out", scratch.path, "--allow-mixed",
        ])
        #expect(result.code == 0, "\(result.errors)")
        let report = try String(contentsOf: scratch.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.hasPrefix("# poolsize: io, cpu on 2 machines\n"))
        #expect(report.contains("**Mixed workloads**"))
    }

    @Test func severalRunsWriteOneReportAndChart() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = runCLI([
            "report", Self.fixture("small"), Self.fixture("large"), Self.fixture("locked"), "--out", scratch.path,
        ])
        #expect(result.code == 0, "\(result.errors)")
        for name in ["report.md", "report.html", "machines.gp", "machines.dat", "machines-recommended.dat"] {
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(name).path), "\(name)")
        }
        let report = try String(contentsOf: scratch.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.contains(
                "**large-vm**: recommends 2.00× the reference (16 vs 8), the formula predicts 2.00× (16.0 vs 8.00): **explained** by cores and W/C."
            ))
        #expect(
            report.contains(
                "**locked-vm**: recommends 0.500× the reference (4 vs 8), but the formula predicts 2.00× (16.0 vs 8.00): **not explained**"
            ))
        // The fixtures are left as they were: nothing is written into a run directory.
        #expect(!FileManager.default.fileExists(atPath: Self.fixture("small") + "/report.md"))
    }

    /// Every run-directory argument completes as a directory in the generated bash script.
    @Test func bashCompletionCompletesRunDirectories() throws {
        let script = PoolSizeCommand.completionScript(for: .bash)
        for (command, option) in [
            ("report", "--out"), ("report", "--plots"), ("sweep", "--out"), ("sweep", "--resume"), ("sweep", "--plots"),
            ("plot", "--plots"), ("plan", "--from"),
        ] {
            let function = try #require(
                Self.function(named: "_poolsize_" + command, in: script), "no completion function for \(command)")
            #expect(Self.completesDirectory(after: option, in: function), "\(command) \(option)")
        }
        for command in ["report", "plot", "compare"] {
            let function = try #require(Self.function(named: "_poolsize_" + command, in: script))
            let positional = try #require(
                function.range(of: "# Offer positional completions"), "\(command) has no positional completion")
            #expect(
                function[positional.upperBound...].contains("__poolsize_add_completions -d"),
                "\(command)'s positional run directory")
        }
        let fit = try #require(Self.function(named: "_poolsize_fit", in: script))
        #expect(fit.contains("csv"), "fit's CSV file")
    }

    static func function(named name: String, in script: String) -> String? {
        guard let start = script.range(of: name + "() {") else { return nil }
        let rest = script[start.upperBound...]
        let end = rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    static func completesDirectory(after option: String, in function: String) -> Bool {
        // The value case of the option: `'--out')` then `__poolsize_add_completions -d`.
        guard let range = function.range(of: "'\(option)')") else { return false }
        return function[range.upperBound...].prefix(80).contains("__poolsize_add_completions -d")
    }
}
