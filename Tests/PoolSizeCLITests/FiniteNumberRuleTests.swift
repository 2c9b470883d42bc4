import Foundation
import Testing

/// One finite-number rule for every reader (FiniteNumber): a throughput of NaN, infinity, a
/// negative number or hexadecimal is refused alike by report, export, compare and fit, naming
/// the file, line and column. Before, report, export and compare took them and only fit refused.
@Suite(.serialized) struct FiniteNumberRuleTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/extremes/closed")

    /// A copy of the fixture run whose first trial has `value` in `column`; the caller removes it.
    static func damagedCopy(column: String, value: String) throws -> URL {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-rule-\(UUID())")
        try FileManager.default.copyItem(at: fixture, to: run)
        let trials = run.appendingPathComponent("trials.csv")
        var lines = try String(contentsOf: trials, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        lines[1][lines[0].firstIndex(of: column)!] = value
        try (lines.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").write(
            to: trials, atomically: true, encoding: .utf8)
        return run
    }

    /// report, export and compare each refuse `run` with exit 65 and `expected` on stderr.
    static func expectEveryRunReaderRefuses(_ run: URL, with expected: String) throws {
        for arguments in [
            ["report", run.path, "--plots", run.appendingPathComponent("plots").path],
            ["export", run.path, "--to", "openmetrics"], ["compare", fixture.path, run.path],
        ] {
            let result = try EndToEndTests.run(arguments, environment: ["PATH": "/nonexistent"])
            #expect(result.code == 65, "\(arguments[0])")
            #expect(result.stderr == expected, "\(arguments[0])")
        }
    }

    @Test(arguments: [
        ("nan", "'nan' is not a finite decimal number", "'nan' is not a number ≥ 0 (decimals, e.g. 12 or 1.5e3)"),
        ("inf", "'inf' is not a finite decimal number", "'inf' is not a number ≥ 0 (decimals, e.g. 12 or 1.5e3)"),
        ("-5", "'-5' is not a number ≥ 0", "'-5' is not a number ≥ 0 (decimals, e.g. 12 or 1.5e3)"),
        ("0x10", "'0x10' is not a finite decimal number", "'0x10' is not a number ≥ 0 (decimals, e.g. 12 or 1.5e3)"),
    ])
    func everyReaderRefusesTheSameThroughput(value: String, runMessage: String, fitMessage: String) throws {
        let run = try Self.damagedCopy(column: "throughput_per_s", value: value)
        defer { try? FileManager.default.removeItem(at: run) }
        let trials = run.appendingPathComponent("trials.csv")
        let expected = "error: \(trials.path): line 2, column 'throughput_per_s': \(runMessage)\n"
        try Self.expectEveryRunReaderRefuses(run, with: expected)
        let fit = try EndToEndTests.run(["fit", trials.path])
        #expect(fit.code == 65)
        #expect(fit.stderr == "error: \(trials.path): line 2, column 'throughput_per_s': \(fitMessage)\n")
    }

    /// A figure no trial measures (2^53 or more: a throughput of 1e308/s, a utilization of 1e30,
    /// a wait of 1e20 µs) was taken and printed by every reader of an edited trials.csv;
    /// now each refuses it alike, naming the file, line and column.
    @Test(arguments: [("throughput_per_s", "1e308"), ("utilization", "1e30"), ("wait_us_per_task", "1e20")])
    func everyReaderRefusesAFigureNoTrialMeasures(column: String, value: String) throws {
        let run = try Self.damagedCopy(column: column, value: value)
        defer { try? FileManager.default.removeItem(at: run) }
        let trials = run.appendingPathComponent("trials.csv")
        let expected =
            "error: \(trials.path): line 2, column '\(column)': '\(value)' is not a figure a trial can measure (below 2^53)\n"
        try Self.expectEveryRunReaderRefuses(run, with: expected)
    }

    /// The same rule for the throughputs recommendation.json repeats: report printed a peak of
    /// "-5.00 at 4" and compare a change of -100.1% from a damaged file. The knee's throughput
    /// is measured as the peak's is, so NaN is refused there too.
    @Test(arguments: [
        ("peak_throughput_per_s", "-5", "-5"), ("peak_throughput_per_s", "\"nan\"", "nan"),
        ("knee_throughput_per_s", "\"inf\"", "∞"), ("knee_throughput_per_s", "-1e300", "-1e+300"),
        ("knee_throughput_per_s", "\"nan\"", "nan"),
    ])
    func recommendationJSONThroughputsFollowTheRule(key: String, value: String, shown: String) throws {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-rule-\(UUID())")
        try FileManager.default.copyItem(at: Self.fixture, to: run)
        defer { try? FileManager.default.removeItem(at: run) }
        let file = run.appendingPathComponent("recommendation.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let damaged = text.replacingOccurrences(
            of: #""\#(key)" : [0-9.e+]+"#, with: "\"\(key)\" : \(value)", options: .regularExpression)
        #expect(damaged != text)
        try damaged.write(to: file, atomically: true, encoding: .utf8)
        let expected =
            "error: \(file.path): key '\(key)' is \(shown), not a throughput (a finite number ≥ 0, as in trials.csv); the file is damaged: rerun the sweep, or delete the file to report from trials.csv alone\n"
        for arguments in [
            ["report", run.path, "--plots", run.appendingPathComponent("plots").path],
            ["export", run.path, "--to", "openmetrics"], ["compare", Self.fixture.path, run.path],
        ] {
            let result = try EndToEndTests.run(arguments, environment: ["PATH": "/nonexistent"])
            #expect(result.code == 65, "\(arguments[0])")
            #expect(result.stderr == expected, "\(arguments[0]): \(result.stderr)")
        }
    }

    /// A pool size of 1e300 in fit's input is no size to find a knee at; it trapped converting
    /// to Int (exit 132) before.
    @Test func fitTakesAHugeConcurrencyWithoutATrap() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-rule-\(UUID()).csv")
        try "pool_size,throughput_per_s\n1,100\n2,190\n1e300,200\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try EndToEndTests.run(["fit", file.path, "--format", "json"])
        #expect(result.code == 0 || result.code == 65, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 1)
        let fits = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(fits?.first?["knee_concurrency"] is NSNull, "no knee among sizes no pool can have")
    }
}
