import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// Random bytes and random mutations of valid files, fed to every loader: nothing crashes or
/// hangs, and every failure is one `PoolSizeError` line with a data or input exit code.
/// Seeded, so a failure reproduces; a few hundred cases per loader, well under a second each.
@Suite struct FuzzTests {
    /// SplitMix64: a seeded generator for the mutations.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Fragments that tend to break parsers: separators, quotes, numbers at their limits.
    static let fragments = [
        ",", "\"", "\n", "\r\n", "{", "}", "[", ":", "nan", "inf", "-1", "0", "1e999", "-0", "\u{0}", "é", "``", "''",
        "name:", "- ", "\t", "null", "true",
    ]

    static func mutate(_ text: String, _ rng: inout Generator) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 1 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...20, using: &rng)))
            case 2: bytes.insert(contentsOf: Array(fragments.randomElement(using: &rng)!.utf8), at: position)
            case 3: bytes = Array(bytes.prefix(position))
            case 4 where !bytes.isEmpty:
                bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 30)], at: position)
            default:
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...8, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }, at: position)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `load` on `cases` inputs; any error must be a one-line PoolSizeError of exit 64–66.
    static func fuzz(
        _ valid: String, cases: Int, seed: UInt64, _ load: (String) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var rng = Generator(state: seed)
        var refused = 0
        for index in 0..<cases {
            let input =
                index % 10 == 0
                ? String(
                    decoding: (0..<Int.random(in: 0...200, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }, as: UTF8.self)
                : mutate(valid, &rng)
            do {
                try load(input)
            } catch let error as PoolSizeError {
                refused += 1
                #expect([64, 65, 66].contains(error.exitCode), "case \(index): \(error)")
                #expect(!error.description.contains("\n"), "case \(index): \(error.description)")
                #expect(error.description.hasPrefix("error: "), "case \(index)")
            } catch {
                Issue.record("case \(index): not a PoolSizeError: \(error)")
            }
        }
        // The mutations must reach the error paths, or the test proves nothing.
        #expect(refused > cases / 4, "only \(refused) of \(cases) inputs were refused", sourceLocation: sourceLocation)
    }

    @Test func workloadSpecs() {
        Self.fuzz(
            BuiltinWorkloads.io.yaml + "critical_us: 100\njitter: uniform\njitter_spread: 0.3\n", cases: 400, seed: 1
        ) {
            _ = try WorkloadSpec.parse(yaml: $0, file: "f.yaml")
        }
    }

    @Test func trialsCSV() {
        Self.fuzz(TrialsCSV.serialize(ReportFixtures.axes.records), cases: 300, seed: 2) {
            _ = try TrialsCSV.parse($0, path: "trials.csv")
        }
    }

    @Test func contentionCSV() {
        let text = ContentionCSV.serialize([
            TierShare(qos: .default, throughputPerSecond: 300, share: 0.6, effectiveNice: 0),
            TierShare(qos: .utility, throughputPerSecond: 200, share: 0.4, effectiveNice: 2),
        ])
        Self.fuzz(text, cases: 300, seed: 3) { _ = try ContentionCSV.parse($0, path: "contention.csv") }
    }

    @Test func runDirectoryJSON() throws {
        let recommendation = JSONExport.serialize(try #require(ReportFixtures.axes.recommendation))
        Self.fuzz(recommendation, cases: 300, seed: 4) {
            _ = try RunDirectoryJSON.decode(RecommendationSet.self, from: $0, path: "recommendation.json")
        }
        Self.fuzz(JSONExport.serialize(ReportFixtures.info), cases: 300, seed: 5) {
            _ = try RunDirectoryJSON.decode(RunInfo.self, from: $0, path: "machine.json")
        }
        let lowLoad = LowLoadEstimate(
            waitMicroseconds: [3000, 3100, 2900], cpuMicroseconds: [1000, 990, 1010], seconds: 0.2)
        Self.fuzz(JSONExport.serialize(lowLoad), cases: 300, seed: 6) {
            _ = try RunDirectoryJSON.decode(LowLoadEstimate.self, from: $0, path: "lowload.json")
        }
    }

    /// Whole run directories with one file mutated, loaded and analysed as `report` does
    /// (charts and report text built in memory).
    @Test func mutatedRunDirectoriesLoadOrFailCleanly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-fuzz-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let run = ReportFixtures.axes
        let files: [(RunDirectory.File, String)] = [
            (.trials, TrialsCSV.serialize(run.records)), (.machine, JSONExport.serialize(run.info!)),
            (.recommendation, JSONExport.serialize(run.recommendation!)),
            (.contention, ContentionCSV.serialize(run.contention)),
        ]
        var rng = Generator(state: 7)
        var refused = 0
        for index in 0..<120 {
            let target = index % files.count
            for (offset, (file, text)) in files.enumerated() {
                try (offset == target ? Self.mutate(text, &rng) : text).write(
                    to: dir.appendingPathComponent(file.rawValue), atomically: true, encoding: .utf8)
            }
            do {
                let loaded = try RunDirectory(dir).load()
                let analysis = RunAnalysis(loaded)
                let document = ReportBuilder.build(
                    analysis, charts: ChartSet.charts(analysis), chartsRendered: false, plotCommand: "poolsize plot x")
                #expect(!ReportMarkdown.render(document, chartDirectory: "").isEmpty)
            } catch {
                refused += 1
                #expect([65, 66].contains(error.exitCode), "case \(index): \(error)")
                #expect(!error.description.contains("\n"), "case \(index): \(error.description)")
            }
        }
        #expect(refused > 20 && refused < 120, "\(refused) of 120 mutated directories were refused")
    }
}
