import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing
import PoolSizeAnalysis

@Suite struct CompareOutputTests {
    /// Columns in another order than TrialsCSV writes them, an extra column, and a `nan`:
    /// the reader finds columns by name and drops undefined cells later.
    static let trials = trialsText(
        first: ["run_id", "repetition", "workload", "pool", "qos", "primitive", "pool_size", "throughput_per_s"],
        rows: [
            [
                "run_id": "r1", "repetition": "1", "workload": "io", "pool_size": "32", "throughput_per_s": "1000.5",
                "latency_p99_us": "21000.0",
            ],
            [
                "run_id": "r1", "repetition": "2", "workload": "io", "pool_size": "32", "throughput_per_s": "1010",
                "latency_p99_us": "nan",
            ],
            [
                "run_id": "r1", "repetition": "1", "workload": "io", "qos": "utility", "primitive": "mutex",
                "pool_size": "4", "throughput_per_s": "250", "latency_p99_us": "9000",
            ],
        ], extra: true)

    /// trials.csv text holding every column the writer writes, `first` first and the others in
    /// the writer's order (then a column named `extra` when asked): each row's cells are those
    /// given, the rest a closed-loop trial's (a ReportFixtures record's, as TrialsCSV writes it).
    static func trialsText(first: [String], rows: [[String: String]], extra: Bool = false) -> String {
        let names = TrialsCSV.columnNames
        let template = Dictionary(
            uniqueKeysWithValues: zip(
                names,
                TrialsCSV.row(ReportFixtures.single.records[0]).dropLast().split(
                    separator: ",", omittingEmptySubsequences: false
                ).map(String.init)))
        let header = first + names.filter { !first.contains($0) } + (extra ? ["extra"] : [])
        return
            ([header.joined(separator: ",")]
            + rows.map { cells in
                header.map { cells[$0] ?? template[$0] ?? "x" }.joined(separator: ",")
            }).joined(separator: "\n") + "\n"
    }

    static let machine = ReportFixtures.machineJSON(
        runID: "r1", cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil), tiers: [.default, .utility],
        primitives: [.none, .mutex])

    @Test func readsRepetitionsPerConfiguration() throws {
        let dir = try ScratchRunDirectory()
        try dir.write("trials.csv", Self.trials)
        try dir.write("machine.json", Self.machine)
        let run = try CompareRunReader.load(dir.path)
        #expect(run.runID == "r1")
        #expect(run.cores == 2)
        #expect(run.workload == WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000))
        let big = try #require(
            run.samples[
                RunConfiguration(
                    workload: "io", combination: Combination(pool: .queuePool, qos: .default, primitive: .none),
                    poolSize: 32)])
        #expect(big.throughputPerSecond == [1000.5, 1010])
        #expect(big.latencyP99Microseconds.count == 2)
        #expect(big.latencyP99Microseconds[0] == 21000)
        #expect(big.latencyP99Microseconds[1].isNaN)
        #expect(run.samples.count == 2)
        // The trials.csv path itself works too (compared without the NaN, which equals nothing).
        let byFile = try CompareRunReader.load(dir.url.appendingPathComponent("trials.csv").path)
        #expect(byFile.runID == run.runID && byFile.cores == run.cores)
        #expect(byFile.samples.mapValues(\.throughputPerSecond) == run.samples.mapValues(\.throughputPerSecond))
    }

    @Test func badFilesAreNamed() throws {
        let dir = try ScratchRunDirectory()
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: dir.url.appendingPathComponent("trials.csv").path,
                hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        ) {
            try CompareRunReader.load(dir.path)
        }
        try dir.write("trials.csv", Self.trials)
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: dir.url.appendingPathComponent("machine.json").path,
                hint:
                    "compare checks the cores and workload a run records there; pass a run directory written by 'poolsize sweep'"
            )
        ) {
            try CompareRunReader.load(dir.path)
        }
        try dir.write("machine.json", Self.machine)
        try dir.write(
            "trials.csv",
            Self.trialsText(first: [], rows: [["run_id": "r1", "pool_size": "8", "throughput_per_s": "fast"]]))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("trials.csv").path,
                message: "line 2, column 'throughput_per_s': 'fast' is not a finite decimal number")
        ) {
            try CompareRunReader.load(dir.path)
        }
        try dir.write(
            "trials.csv",
            Self.trialsText(first: [], rows: [["run_id": "r1"]]).replacingOccurrences(of: "pool_size,", with: "size,"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("trials.csv").path,
                message: "column 'pool_size' missing from the header; expected the columns in results/README.md")
        ) {
            try CompareRunReader.load(dir.path)
        }
    }

    @Test func goldenMarkdown() throws {
        func run(_ id: String, _ throughput: [Double], _ p99: [Double]) -> RunSamples {
            RunSamples(
                runID: id, cores: 2, workload: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
                samples: [
                    RunConfiguration(
                        workload: "io", combination: Combination(pool: .queuePool, qos: .default, primitive: .none),
                        poolSize: 32):
                        RunSamples.Samples(throughputPerSecond: throughput, latencyP99Microseconds: p99),
                    RunConfiguration(
                        workload: "io", combination: Combination(pool: .queuePool, qos: .default, primitive: .none),
                        poolSize: 8):
                        RunSamples.Samples(throughputPerSecond: [500, 505, 495], latencyP99Microseconds: p99),
                ])
        }
        let comparison = try RunComparator.compare(
            base: run("base", [2000, 2020, 1980], [21_000, 21_500, 20_500]),
            current: run("head", [1600, 1616, 1584], [21_000, 21_400, 20_600]), threshold: 0.05)
        let expected = """
            ## poolsize compare

            Base `base` → current `head` · workload `io` · 2 cores · threshold 5% · significance p < 0.05

            | pool | qos | primitive | size | throughput base /s | current /s | Δ throughput | p99 base | p99 current | Δ p99 | verdict |
            |---|---|---|--:|--:|--:|--:|--:|--:|--:|---|
            | queue-pool | default | none | 8 | 500 | 500 | +0.0% | 21 ms | 21 ms | +0.0% | ok |
            | queue-pool | default | none | 32 | 2000 | 1600 | -20.0% (95% intervals apart) | 21 ms | 21 ms | +0.0% | **regression** |

            **1 of 2 configurations regressed: throughput -20.0% at queue-pool/default/none/32 (95% intervals apart)**

            Medians over repetitions. A change counts when it exceeds the threshold and is significant: Mann–Whitney U where the repetitions allow p < 0.05 (4 + 4 or more), otherwise non-overlapping 95% Student-t intervals of the means.

            """
        #expect(ComparisonReport.render(comparison) == expected)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(comparison).utf8)) as? [String: Any])
        #expect(json["verdict"] as? String == "regression")
        #expect(json["regressions"] as? Int == 1)
        let rows = try #require(json["configurations"] as? [[String: Any]])
        #expect((rows[1]["throughput"] as? [String: Any])?["relative_change"] as? Double == -0.2)
        #expect((rows[1]["configuration"] as? [String: Any])?["pool_size"] as? Int == 32)
    }

    /// Names read from the runs' files are literal text: no raw HTML, no code span they can close,
    /// no table cell they can split.
    @Test func namesFromFilesAreLiteralMarkdown() throws {
        let name = "io`<script>alert(1)</script>|x"
        func run(_ id: String, _ throughput: [Double]) -> RunSamples {
            RunSamples(
                runID: id, cores: 2, workload: WorkloadSpec(name: name, cpuMicroseconds: 1000, waitMicroseconds: 15000),
                samples: [
                    RunConfiguration(
                        workload: name, combination: Combination(pool: .queuePool, qos: .default, primitive: .none),
                        poolSize: 8):
                        RunSamples.Samples(throughputPerSecond: throughput, latencyP99Microseconds: [1, 1, 1])
                ])
        }
        let comparison = try RunComparator.compare(
            base: run("base`", [500, 505, 495]), current: run("head", [500, 505, 495]), threshold: 0.05)
        let markdown = ComparisonReport.render(comparison)
        // Inside a code span `<script>` is shown, not parsed.
        #expect(markdown.contains("Base `` base` `` → current `head` · workload ``io`<script>alert(1)</script>|x``"))
        #expect(markdown.contains("| queue-pool | default | none | 8 |"))
    }
}
