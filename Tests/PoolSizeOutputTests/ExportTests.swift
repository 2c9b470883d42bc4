import Foundation
import PoolSizeModel
import Testing
@testable import PoolSizeOutput

/// `poolsize export`: each format parses as what it claims, on the hand-made `machines/small`
/// run (2 repetitions per size: 98 and 102 tasks/s at N = 1, so mean 100, and the 95% interval's
/// half-width t(0.975, 1) × s / √2 = 12.706 × 2.828 / 1.414 = 25.4).
@Suite struct ExportTests {
    static func analysis() throws -> RunAnalysis {
        RunAnalysis(try RunDirectory(ReportFixtures.fixture("machines/small")).load())
    }

    struct Entry: Decodable, Equatable {
        var name: String
        var unit: String
        var value: Double
        var range: String?
        var extra: String?
    }

    @Test func githubBenchmarkIsTheActionsArrayOfThroughputs() throws {
        let text = GitHubBenchmarkExport.serialize(try Self.analysis(), direction: .bigger)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        #expect(
            entries.first
                == Entry(
                    name: "io queue-pool/default/none N=1 throughput", unit: "tasks/s", value: 100, range: "± 25.4",
                    extra: "2 repetition(s); CV 2.8%; utilization 5%"))
        #expect(entries.map(\.name).last == "io queue-pool/default/none peak throughput")
        #expect(entries.allSatisfy { $0.unit == "tasks/s" })
        #expect(Set(entries.map(\.name)).count == entries.count, "names are unique, so the action tracks each")
    }

    @Test func githubBenchmarkSmallerCarriesTheRecommendation() throws {
        let text = GitHubBenchmarkExport.serialize(try Self.analysis(), direction: .smaller)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        #expect(
            entries == [
                Entry(
                    name: "io queue-pool/default/none recommended queues", unit: "queues", value: 8, range: nil,
                    extra: "basis knee; knee 8; formula 8.00 (W/C 3.00, 2 cores)")
            ])
    }

    /// A `--postgres` run's smaller-is-better file adds, per size, the backends' CPU per
    /// transaction (0.05 s over 100 tasks and 4 failures: 480.8 µs) with their wait shares, and
    /// the server's failures by SQLSTATE; a size's two repetitions pool.
    @Test func githubBenchmarkSmallerCarriesTheDatabase() throws {
        let records = [(4, 1), (4, 2)].map { size, repetition in
            var r = TrialRecord(
                runID: "r", workload: "postgres-bench", pool: .threadPool, qos: .default, primitive: .none,
                poolSize: size, repetition: repetition, tasks: 50, wallSeconds: 1, throughputPerSecond: 50,
                cpuMicrosecondsPerTask: 100, waitMicrosecondsPerTask: 300, waitCPURatio: 3, utilization: 0.1,
                peakConcurrency: size, threads: size, effectiveNice: 0, integrity: .notApplicable, errors: 2)
            r.watched = .database(
                DatabaseFigures(
                    errorsBySQLState: ["40001": 2], backendCPUSeconds: 0.025, waitSamples: [.lock: 3, .client: 1],
                    snapshots: 4))
            return r
        }
        let text = GitHubBenchmarkExport.serialize(
            RunAnalysis(RunData(runID: "r", records: records)), direction: .smaller)
        let entries = try JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        let prefix = "postgres-bench thread-pool/default/none N=4"
        #expect(
            entries.filter { $0.name.hasPrefix(prefix) && !$0.name.hasSuffix("latency") } == [
                Entry(
                    name: "\(prefix) server CPU per transaction", unit: "us", value: 0.05e6 / 104, range: nil,
                    extra: "backends' samples: Lock 75%, Client 25%"),
                Entry(
                    name: "\(prefix) database errors", unit: "transactions", value: 4, range: nil,
                    extra: "by SQLSTATE: 40001:4"),
            ])
    }

    /// The rules of the OpenMetrics text format this export relies on, checked line by line.
    static func validate(_ text: String) -> [String] {
        var problems: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "", lines.dropLast().last == "# EOF" else {
            return ["does not end with '# EOF' and a line feed"]
        }
        var families: [String: String] = [:]
        var current: String?
        let name = try! Regex("^[a-zA-Z_:][a-zA-Z0-9_:]*$")
        for line in lines.dropLast(2) {
            if line.hasPrefix("# ") {
                let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard parts.count >= 3 else { problems.append("short metadata line: \(line)"); continue }
                switch parts[1] {
                case "TYPE":
                    if families[parts[2]] != nil { problems.append("second TYPE for \(parts[2])") }
                    families[parts[2]] = parts.count > 3 ? parts[3] : ""
                    current = parts[2]
                    if (try? name.wholeMatch(in: parts[2])) == nil { problems.append("bad family name \(parts[2])") }
                case "UNIT":
                    if parts[2] != current || parts.count < 4 || !parts[2].hasSuffix("_" + parts[3]) {
                        problems.append("UNIT not matching its family: \(line)")
                    }
                case "HELP":
                    if parts[2] != current { problems.append("HELP for another family: \(line)") }
                default: problems.append("unknown metadata: \(line)")
                }
                continue
            }
            // name{labels} value
            guard let brace = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else {
                problems.append("sample without labels: \(line)"); continue
            }
            let metric = String(line[..<brace])
            if metric != current { problems.append("sample \(metric) outside its family") }
            let value = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if Double(value) == nil { problems.append("value not a number: \(line)") }
            // Labels: name="value" pairs, values with \\, \" and \n escapes only.
            var rest = Substring(line[line.index(after: brace)..<close])
            while !rest.isEmpty {
                guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)] == "\"" else {
                    problems.append("bad label in \(line)"); break
                }
                rest = rest[rest.index(equals, offsetBy: 2)...]
                var closed = false
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == "\\" {
                        guard let next = rest.first, "\\\"n".contains(next) else {
                            problems.append("bad escape in \(line)"); break
                        }
                        rest = rest.dropFirst()
                    } else if c == "\"" {
                        closed = true; break
                    } else if c == "\n" {
                        problems.append("raw line feed in \(line)")
                    }
                }
                if !closed { problems.append("unterminated label in \(line)"); break }
                if rest.first == "," { rest = rest.dropFirst() }
            }
        }
        if families.values.contains(where: { $0 != "gauge" }) { problems.append("a family that is not a gauge") }
        return problems
    }

    @Test func openMetricsFollowsTheFormat() throws {
        let text = OpenMetricsExport.serialize(try Self.analysis())
        #expect(Self.validate(text) == [])
        #expect(
            text.contains(
                "\npoolsize_throughput_per_second{workload=\"io\",host=\"small-vm\",pool=\"queue-pool\",qos=\"default\",primitive=\"none\",size=\"1\"} 100\n"
            ))
        #expect(
            text.contains(
                "\npoolsize_recommended_queues{workload=\"io\",host=\"small-vm\",pool=\"queue-pool\",qos=\"default\",primitive=\"none\"} 8\n"
            ))
        #expect(text.contains("\npoolsize_wait_cpu_ratio{workload=\"io\",host=\"small-vm\"} 3\n"))
        #expect(
            !text.contains("poolsize_latency_p99_seconds"),
            "the fixture recorded no latency: no zeros pretending to be answers")
    }

    /// A workload named with a quote, a backslash and a line break stays one label value in
    /// OpenMetrics and one string in JSON.
    @Test func hostileNamesAreEscaped() throws {
        let name = "io \"quoted\" back\\slash\nnext"
        let records = (1...2).map { size in
            TrialRecord(
                runID: "r", workload: name, pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1,
                tasks: 100, wallSeconds: 1, throughputPerSecond: Double(100 * size), cpuMicrosecondsPerTask: 1000,
                waitMicrosecondsPerTask: 3000, waitCPURatio: 3, utilization: 0.1, peakConcurrency: size,
                threads: size, effectiveNice: 0, integrity: .notApplicable)
        }
        let analysis = RunAnalysis(RunData(runID: "r", records: records))
        let metrics = OpenMetricsExport.serialize(analysis)
        #expect(Self.validate(metrics) == [])
        #expect(metrics.contains("workload=\"io \\\"quoted\\\" back\\\\slash\\nnext\""))
        let entries = try JSONDecoder().decode(
            [Entry].self, from: Data(GitHubBenchmarkExport.serialize(analysis, direction: .bigger).utf8))
        #expect(entries.first?.name == "\(name) queue-pool/default/none N=1 throughput")
    }

    @Test func escapeLabelHandlesEachCharacter() {
        #expect(OpenMetricsExport.escapeLabel("a\\b\"c\nd") == "a\\\\b\\\"c\\nd")
        #expect(OpenMetricsExport.escapeLabel("plain") == "plain")
    }
}
