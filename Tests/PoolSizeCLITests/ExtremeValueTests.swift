import Foundation
import PoolSize
import PoolSizeModel
import PoolSizeOutput
import Synchronization
import Testing

/// The property every input must hold, checked on the real binary: ±0, 1e-300, 1e300, 2^63,
/// NaN, ±inf, -1, Int.min and 2^53 − 1 in every numeric field of every file the tool reads
/// (trials.csv, machine.json, lowload.json, recommendation.json, contention.csv, traces,
/// workload specs) and in every numeric flag of every command, each number of a list or range
/// included, give no crash (no signal, no 132/133/134/139), an exit code the README documents,
/// exactly one line on stderr when they fail, and no raw control character on stderr ever.
/// Each file case mutates copies of two small runs in Tests/Fixtures/extremes (a closed loop
/// and an open one); a command that accepts a value runs to completion: sweeps only as
/// `--dry-run`, `serve` for 200 ms. The library's reader of recommendation.json is asked in
/// process. About 1,200 short processes; no timing assertions (a process has a minute, to
/// catch a hang, not to measure one).
@Suite(.serialized) struct ExtremeValueTests {
    /// Also the extremes a whole number can take: `Int.min` decodes as an `Int` (2^63 does
    /// not) and overflowed the first subtraction it met; 2^53 − 1 is the largest whole number
    /// a file may hold (`FiniteNumber.isWhole`), and hung a report that enumerated it.
    static let values = [
        "0", "-0", "1e-300", "1e300", "9223372036854775808", "nan", "inf", "-inf", "-1", "-9223372036854775808",
        "9007199254740991",
    ]
    /// How run directories' JSON spells the same values (non-finite numbers as strings).
    static let jsonValues = [
        "0", "-0", "1e-300", "1e300", "9223372036854775808", "\"nan\"", "\"inf\"", "\"-inf\"", "-1",
        "-9223372036854775808", "9007199254740991",
    ]
    /// README "Exit codes", and observe's limits 6 to 9 (docs/guide/observe.md).
    static let documented: Set<Int32> = [0, 2, 3, 4, 5, 6, 7, 8, 9, 64, 65, 66, 73, 75, 130]
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/extremes")

    /// One invocation and what it must show; `then` runs after it only when it succeeded
    /// (commands that share its reader refuse what it refused, and need not be asked again).
    struct Case: Sendable {
        var label: String
        var arguments: [String]
        var then: [[String]] = []
        /// Run instead of `then` when this case is refused: a batch's fields one by one.
        var otherwise: [Case] = []
    }

    /// What broke the property, one line per case; empty when every case held. Also counts the
    /// refusals and acceptances, so a run that reached no error path (or no success) is seen.
    struct Outcome: Sendable {
        var failures: [String] = []
        var refused = 0
        var accepted = 0
    }

    static func run(_ cases: [Case], in directory: URL) -> Outcome {
        let outcome = Mutex(Outcome())
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            var result = check(cases[index], in: directory)
            var results = [result]
            for arguments in cases[index].then where result.code == 0 && result.failure == nil {
                result = check(Case(label: cases[index].label, arguments: arguments), in: directory)
                results.append(result)
            }
            if results[0].code != 0 { results += cases[index].otherwise.map { check($0, in: directory) } }
            outcome.withLock { outcome in
                for result in results {
                    if let failure = result.failure { outcome.failures.append(failure) }
                    if result.code == 0 { outcome.accepted += 1 } else { outcome.refused += 1 }
                }
            }
        }
        return outcome.withLock { $0 }
    }

    /// Runs one case; gnuplot is kept off PATH (the charts' data and scripts are still written).
    static func check(_ c: Case, in directory: URL) -> (code: Int32, failure: String?) {
        let run: BinaryRun.Result
        do {
            run = try BinaryRun.run(
                c.arguments, environment: ["PATH": "/nonexistent", "HOME": directory.path, "TMPDIR": directory.path],
                directory: directory, timeout: 60)
        } catch { return (-1, "\(c.label): could not start: \(error)") }
        let (code, stderr) = (run.code, run.stderr)
        let shown = "\(c.label) [\(c.arguments.joined(separator: " "))]"
        if run.signaled {
            return (code, "\(shown): killed by signal \(code) (a crash, or a hang past 60 s): \(stderr.prefix(300))")
        }
        if [132, 133, 134, 139].contains(code) || !documented.contains(code) {
            return (code, "\(shown): exit \(code), not a documented code: \(stderr.prefix(300))")
        }
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if code != 0, lines.count != 1 || !stderr.hasSuffix("\n") {
            return (code, "\(shown): exit \(code) with \(lines.count) stderr lines: \(stderr.prefix(300))")
        }
        if let line = lines.first(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            return (code, "\(shown): a raw control character on stderr: \(line.prefix(300))")
        }
        return (code, nil)
    }

    /// A reader's refusal is one error whatever the field (`RunDirectory.load`, `PlanSourceReader`
    /// read every file whole before anything is computed from it): the binary shows it for the
    /// first value a field is refused with; the field's other refusals are checked in process,
    /// which keeps the test to a minute or two. What a reader accepts always runs in the binary.
    struct Refusals {
        private var shown: Set<String> = []
        var failures: [String] = []

        /// The case to run in the binary, or nil when `read` refused and this field's refusal was
        /// already shown by the binary (then the refusal's exit code is checked here).
        mutating func binaryCase(_ c: Case, field: String, read: () throws(PoolSizeError) -> Void) -> Case? {
            do {
                try read()
                return c
            } catch {
                guard !shown.insert(field + " " + c.arguments[0]).inserted else {
                    return Case(label: c.label, arguments: c.arguments)
                }
                if !ExtremeValueTests.documented.contains(error.exitCode) || error.exitCode == 0 {
                    failures.append(
                        "\(c.label): refused with exit \(error.exitCode), not a documented code: \(error.description)")
                }
                return nil
            }
        }
    }

    /// A scratch directory for one test, removed after it.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-extremes-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A copy of a fixture run with `files` replaced; `name` is unique per case.
    static func copy(_ fixture: String, to directory: URL, name: String, files: [String: String]) throws -> URL {
        let run = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: run)
        for (file, text) in files {
            try text.write(to: run.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        return run
    }

    /// `report`, which reads every file of the run, then (when it accepted the run: they share
    /// its reader) one of `export` (two formats), `compare`, `plot` and the side-by-side report
    /// of this run and the fixture, in turn. `followUp` is false for machine.json and
    /// lowload.json: export uses their figures as report's analysis does, and compare only checks
    /// machine.json's cores and workload for equality; the side-by-side report, which sets the
    /// machines' facts beside each other, follows them instead.
    static func report(_ run: URL, fixture: String, label: String, _ turn: Int, followUp: Bool = true) -> Case {
        let sideBySide = [
            "report", run.path, fixtures.appendingPathComponent(fixture).path, "--out",
            run.appendingPathComponent("machines").path,
        ]
        let next = [
            ["export", run.path, "--to", "openmetrics"],
            ["compare", fixtures.appendingPathComponent(fixture).path, run.path],
            ["export", run.path, "--to", "github-benchmark-smaller"],
            ["plot", run.path, "--plots", run.appendingPathComponent("plots-again").path],
            sideBySide,
        ][turn % 5]
        return Case(
            label: label, arguments: ["report", run.path, "--plots", run.appendingPathComponent("plots").path],
            then: [followUp ? next : sideBySide])
    }
}

extension ExtremeValueTests {
    /// Every numeric column of trials.csv (the closed run's, and the open-loop columns of the
    /// open run): report (then export or compare) and, for the columns fit reads, fit.
    @Test func everyNumericCellOfTrialsCSV() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cases: [Case] = []
        var refusals = Refusals()
        for (fixture, from) in [("closed", "pool_size"), ("open", "arrival_rate_per_s")] {
            let text = try String(
                contentsOf: Self.fixtures.appendingPathComponent("\(fixture)/trials.csv"), encoding: .utf8)
            let lines = text.split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            let header = lines[0]
            #expect(lines.allSatisfy { $0.count == header.count }, "the fixture has no quoted commas")
            let textual: Set = [
                "run_id", "workload", "pool", "qos", "primitive", "integrity", "invalid_reason", "stable",
            ]
            let columns = header.indices.filter { $0 >= header.firstIndex(of: from)! && !textual.contains(header[$0]) }
            func csv(_ rows: [[String]]) -> String {
                rows.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
            }
            // One cell per copy, so that a refused cell hides nothing; the cells a value leaves
            // readable are then reported together, one per row (a row made invalid leaves the
            // others in the curve), and one by one only when that copy is refused.
            var readable: [Int: [(column: Int, report: Case)]] = [:]
            for column in columns {
                for (v, value) in Self.values.enumerated() {
                    var rows = lines
                    rows[1][column] = value
                    let name = "\(fixture)-trials-\(column)-\(v)"
                    let run = try Self.copy(fixture, to: directory, name: name, files: ["trials.csv": csv(rows)])
                    let label = "\(fixture) trials.csv \(header[column])=\(value)"
                    let report = Self.report(run, fixture: fixture, label: label, column + v)
                    if (try? RunDirectory(run).load()) != nil {
                        readable[v, default: []].append((column, report))
                    } else if let c = refusals.binaryCase(
                        report, field: "\(fixture) \(header[column])",
                        read: { () throws(PoolSizeError) in _ = try RunDirectory(run).load() })
                    {
                        cases.append(c)
                    }
                    // fit has its own CSV reader, of the concurrency, throughput and rate columns
                    // (FitInput): asked on every copy that changes one of them.
                    if ["pool_size", "throughput_per_s", "arrival_rate_per_s"].contains(header[column]) {
                        cases.append(
                            Case(label: label, arguments: ["fit", run.appendingPathComponent("trials.csv").path]))
                    }
                }
            }
            let dataRows = lines.count - 1
            for (v, cells) in readable.sorted(by: { $0.key < $1.key }) {
                for (b, start) in stride(from: 0, to: cells.count, by: dataRows).enumerated() {
                    let chunk = Array(cells[start..<min(start + dataRows, cells.count)])
                    var rows = lines
                    for (row, cell) in chunk.enumerated() { rows[1 + row][cell.column] = Self.values[v] }
                    let run = try Self.copy(
                        fixture, to: directory, name: "\(fixture)-trials-together-\(v)-\(b)",
                        files: ["trials.csv": csv(rows)])
                    guard chunk.count > 1, (try? RunDirectory(run).load()) != nil else {
                        cases += chunk.map(\.report)
                        continue
                    }
                    var together = Self.report(
                        run, fixture: fixture,
                        label:
                            "\(fixture) trials.csv \(chunk.map { header[$0.column] }.joined(separator: "+"))=\(Self.values[v])",
                        v + b)
                    together.otherwise = chunk.map(\.report)
                    cases.append(together)
                }
            }
        }
        let outcome = Self.run(cases, in: directory)
        let failures = refusals.failures + outcome.failures
        #expect(
            failures.isEmpty,
            "\(failures.count) cases broke the property:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(
            outcome.refused > 20 && outcome.accepted > cases.count / 4,
            "refused \(outcome.refused), accepted \(outcome.accepted) (\(cases.count) cases): the values must reach both paths"
        )
    }

    /// Every number in machine.json, lowload.json and recommendation.json, one field per copy
    /// (a field's every occurrence at once: `combinations` repeats the best recommendation,
    /// `plan` the workload and settings), read by `report` (then export and compare) and by
    /// `plan --from`, which has its own reader; the fields of a file that a value leaves
    /// readable are reported together, one copy per value.
    @Test func everyNumberOfTheRunDirectoryJSON() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cases: [Case] = []
        var refusals = Refusals()
        var readRuns: Set<String> = [], plannedRuns: Set<String> = []
        for fixture in ["closed", "open"] {
            readRuns.insert(Self.identity(try RunDirectory(Self.fixtures.appendingPathComponent(fixture)).load()))
            plannedRuns.insert(
                Self.identity(try PlanSourceReader.load(Self.fixtures.appendingPathComponent(fixture).path)))
            cases.append(
                Case(
                    label: "\(fixture) as it is",
                    arguments: [
                        "plan", "--from", Self.fixtures.appendingPathComponent(fixture).path, "--target-rate", "100/s",
                    ]))
            let copy = try Self.copy(fixture, to: directory, name: "\(fixture)-as-it-is", files: [:])
            cases.append(Self.report(copy, fixture: fixture, label: "\(fixture) as it is", 0))
            for file in ["machine.json", "lowload.json", "recommendation.json"] {
                let lines = try String(
                    contentsOf: Self.fixtures.appendingPathComponent("\(fixture)/\(file)"), encoding: .utf8
                ).components(separatedBy: "\n")
                // The open run adds only its open-loop fields to what the closed run covers.
                let numbers = PrettyJSON.numberLines(lines).filter {
                    fixture == "closed"
                        || ["arrival", "slo", "verdicts", "queueing", "rate_sizings"].contains(where: $0.key.contains)
                }
                let fields = Dictionary(grouping: numbers, by: \.key)
                // The fields a value leaves readable go into one copy per value (report's answer
                // to all of them at once), and are reported one by one only when that copy is
                // refused.
                var batches: [Int: (lines: [String], singles: [Case])] = [:]
                for (f, key) in fields.keys.sorted().enumerated() {
                    for (v, value) in Self.jsonValues.enumerated() {
                        var mutated = lines
                        for number in fields[key]! {
                            mutated[number.line] = PrettyJSON.replacingNumber(mutated[number.line], with: value)
                        }
                        let run = try Self.copy(
                            fixture, to: directory, name: "\(fixture)-\(file)-\(f)-\(v)",
                            files: [file: mutated.joined(separator: "\n")])
                        let label = "\(fixture) \(file) \(key)=\(value)"
                        let field = "\(fixture) \(file) \(key)"
                        // A copy report reads as it read another (a field no reader keeps, 0 and -0
                        // of a whole number) reports the same: run once. Told apart by their
                        // description, in which -0.0 and nan are themselves.
                        let read = (try? RunDirectory(run).load()).map { Self.identity($0) }
                        let report = Self.report(
                            run, fixture: fixture, label: label, f + v, followUp: file == "recommendation.json")
                        if read != nil {
                            if readRuns.insert(read!).inserted {
                                var batch = batches[v] ?? (lines, [])
                                for number in fields[key]! { batch.lines[number.line] = mutated[number.line] }
                                batch.singles.append(report)
                                batches[v] = batch
                            }
                        } else if read.map({ readRuns.insert($0).inserted }) != false,
                            let c = refusals.binaryCase(
                                report, field: field,
                                read: { () throws(PoolSizeError) in _ = try RunDirectory(run).load() })
                        {
                            cases.append(c)
                        }
                        // plan --from reads the run through PlanSourceReader: a copy it reads as it
                        // reads the fixture (a field it does not use) plans the same.
                        let plan = Case(
                            label: label, arguments: ["plan", "--from", run.path, "--target-rate", "100/s"])
                        let planned = (try? PlanSourceReader.load(run.path)).map { Self.identity($0) }
                        if planned.map({ plannedRuns.insert($0).inserted }) != false,
                            let c = refusals.binaryCase(
                                plan, field: field,
                                read: { () throws(PoolSizeError) in _ = try PlanSourceReader.load(run.path) })
                        {
                            cases.append(c)
                        }
                    }
                }
                for (v, batch) in batches.sorted(by: { $0.key < $1.key }) {
                    let run = try Self.copy(
                        fixture, to: directory, name: "\(fixture)-\(file)-all-\(v)",
                        files: [file: batch.lines.joined(separator: "\n")])
                    guard batch.singles.count > 1, (try? RunDirectory(run).load()) != nil else {
                        cases += batch.singles
                        continue
                    }
                    var together = Self.report(
                        run, fixture: fixture,
                        label: "\(fixture) \(file) \(batch.singles.count) fields=\(Self.jsonValues[v])", v,
                        followUp: file == "recommendation.json")
                    together.otherwise = batch.singles
                    cases.append(together)
                }
            }
        }
        let outcome = Self.run(cases, in: directory)
        let failures = refusals.failures + outcome.failures
        #expect(
            failures.isEmpty,
            "\(failures.count) cases broke the property:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(
            outcome.refused > 50 && outcome.accepted > cases.count / 4,
            "refused \(outcome.refused), accepted \(outcome.accepted) (\(cases.count) cases)")
    }

    /// The library's reader of recommendation.json (`QueuePoolSet(recommendationAt:)`, what an
    /// app ships): every number of both fixtures' files at every value, in process. A count it
    /// accepts builds its pools (0 or less trapped in `QueuePool`); a refusal is one line.
    @Test func everyNumberOfRecommendationJSONInTheLibrary() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var failures: [String] = [], accepted = 0, refused = 0
        for fixture in ["closed", "open"] {
            let lines = try String(
                contentsOf: Self.fixtures.appendingPathComponent("\(fixture)/recommendation.json"), encoding: .utf8
            ).components(separatedBy: "\n")
            for number in PrettyJSON.numberLines(lines) {
                for value in Self.jsonValues {
                    var mutated = lines
                    mutated[number.line] = PrettyJSON.replacingNumber(mutated[number.line], with: value)
                    let file = directory.appendingPathComponent("recommendation.json")
                    try mutated.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
                    let label = "\(fixture) recommendation.json line \(number.line + 1) \(number.key)=\(value)"
                    do {
                        let pools = try QueuePoolSet(recommendationAt: file, defaultCount: 1)
                        let counts = QoSTier.allCases.map { pools.count(for: $0) }
                        if let wrong = counts.first(where: { !(1...SizeSelection.maximumSize).contains($0) }) {
                            failures.append("\(label): a pool of \(wrong) queues")
                        }
                        for tier in QoSTier.allCases { _ = pools.queue(for: tier) }
                        accepted += 1
                    } catch {
                        refused += 1
                        if !Self.documented.contains(error.exitCode) || error.exitCode == 0
                            || error.description.contains("\n")
                        {
                            failures.append("\(label): refused with exit \(error.exitCode): \(error.description)")
                        }
                    }
                }
            }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) cases broke the property:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(refused > 20 && accepted > 20, "refused \(refused), accepted \(accepted)")
    }

    /// contention.csv, a trace and a workload spec: every numeric field.
    @Test func everyNumberOfContentionTracesAndSpecs() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cases: [Case] = []
        for (v, value) in Self.values.enumerated() {
            for (c, column) in ["share", "throughput_per_s", "effective_nice"].enumerated() {
                var cells = ["utility", "0.4000", "200.000", "2"]
                cells[c + 1] = value
                let text =
                    "qos,share,throughput_per_s,effective_nice\ndefault,0.6000,300.000,0\n"
                    + cells.joined(separator: ",") + "\n"
                let run = try Self.copy(
                    "closed", to: directory, name: "contention-\(c)-\(v)", files: ["contention.csv": text])
                cases.append(
                    Case(
                        label: "contention.csv \(column)=\(value)",
                        arguments: ["report", run.path, "--plots", run.appendingPathComponent("plots").path]))
            }
            for (row, label) in [("\(value),200", "cpu_us"), ("100,\(value)", "wait_us")] {
                let trace = directory.appendingPathComponent("trace-\(label)-\(v).csv")
                try "cpu_us,wait_us\n100,200\n\(row)\n".write(to: trace, atomically: true, encoding: .utf8)
                cases.append(
                    Case(
                        label: "trace \(label)=\(value)",
                        arguments: ["sweep", "--trace", trace.path, "--sizes", "1,2", "--dry-run"]))
            }
            for field in [
                "cpu_us", "wait_us", "jitter_spread", "trial_ms", "max_tasks", "critical_us", "file_write_kb",
                "file_read_kb",
            ] {
                var fields = [
                    "name": "extreme", "cpu_us": "100", "wait_us": "900", "jitter": "uniform", "jitter_spread": "0.2",
                    "trial_ms": "100", "max_tasks": "1000", "critical_us": "10", "file_write_kb": "1",
                    "file_read_kb": "1",
                ]
                fields[field] = value
                let spec = directory.appendingPathComponent("spec-\(field)-\(v).yaml")
                try fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n").write(
                    to: spec, atomically: true, encoding: .utf8)
                cases.append(
                    Case(
                        label: "workload spec \(field)=\(value)",
                        arguments: ["sweep", "--workload", spec.path, "--sizes", "1,2", "--dry-run"]))
            }
        }
        let outcome = Self.run(cases, in: directory)
        #expect(
            outcome.failures.isEmpty,
            "\(outcome.failures.count) of \(cases.count) cases broke the property:\n\(outcome.failures.prefix(20).joined(separator: "\n"))"
        )
        #expect(
            outcome.refused > cases.count / 4 && outcome.accepted > cases.count / 10,
            "refused \(outcome.refused), accepted \(outcome.accepted) of \(cases.count)")
    }

    /// Every numeric flag of every command. Sweeps run as --dry-run; serve and observe for
    /// 200 ms when they accept the value, bench-driver for 100 ms; calibrate, probe and
    /// bench-harness accept none of these values.
    @Test func everyNumericFlag() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = Self.fixtures.appendingPathComponent("closed").path
        // (command with the flag's place marked V, unit appended to each value)
        let templates: [([String], String)] = [
            (["sweep", "--dry-run", "--workload", "cpu", "--sizes", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--cores", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--target-utilization", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--tolerance", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--repeat", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--warmup", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--trial-ms", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--seed", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--critical-us", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--read-ratio", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--busy-retries", "V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--budget", "V"], "s"),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "V"], "/s"),
            // Each number inside a list or a range too (a step of 1e-300 made more rates than an Int holds).
            (["sweep", "--dry-run", "--workload", "cpu", "--sizes", "1,V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--sizes", "V...8"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--sizes", "1...V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--sizes", "8...64:V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "V"], "/s...200/s:50"),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "100/s...V"], "/s:50"),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "100/s...200/s:V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "100/min...200/min:V"], ""),
            (["sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "100/s", "--latency-slo", "V"], "ms"),
            (
                [
                    "sweep", "--dry-run", "--workload", "cpu", "--arrival-rate", "100/s", "--latency-slo", "10ms",
                    "--slo-percentile", "V",
                ], ""
            ),
            (["sweep", "--dry-run", "--exec", "/bin/true", "--task-timeout", "V"], "s"),
            (["sweep", "--dry-run", "--http", "http://127.0.0.1:8080/", "--task-timeout", "V"], "s"),
            (["sweep", "--dry-run", "--http", "http://127.0.0.1:V/"], ""),
            (["serve", "--quiet", "--duration", "200ms", "--port", "V"], ""),
            (["serve", "--quiet", "--duration", "200ms", "--port", "0", "--cpu", "V"], "ms"),
            (["serve", "--quiet", "--duration", "200ms", "--port", "0", "--delay", "V"], "ms"),
            (["serve", "--quiet", "--duration", "200ms", "--port", "0", "--threads", "V"], ""),
            (["serve", "--quiet", "--duration", "200ms", "--port", "0", "--workers", "V"], ""),
            (["serve", "--quiet", "--port", "0", "--duration", "V"], "s"),
            (["fit", run + "/trials.csv", "--tolerance", "V"], ""),
            (["compare", run, run, "--threshold", "V"], ""),
            (["compare", run, run, "--threshold", "V"], "%"),
            (["plan", "--wait", "V", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "8"], "ms"),
            (["plan", "--wait", "40ms", "--cpu", "V", "--target-rate", "100/s", "--cores-per-host", "8"], "ms"),
            (["plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "V", "--cores-per-host", "8"], "/s"),
            (["plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "V"], ""),
            (
                [
                    "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "8",
                    "--target-utilization", "V",
                ], ""
            ),
            (
                [
                    "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "8",
                    "--headroom", "V",
                ], ""
            ),
            (
                [
                    "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "8",
                    "--latency-slo", "V",
                ], "ms"
            ),
            (
                [
                    "plan", "--wait", "40ms", "--cpu", "5ms", "--target-rate", "100/s", "--cores-per-host", "8",
                    "--latency-slo", "1s", "--slo-percentile", "V",
                ], ""
            ),
            (["plan", "--from", run, "--target-rate", "100/s", "--cores-per-host", "V"], ""),
            (["calibrate", "--rounds", "V", "--out", "calibrate.csv"], ""),
            (["calibrate", "--round-ms", "V", "--out", "calibrate.csv"], ""),
            (["probe", "--watchdog-ms", "V"], ""),
            (["bench-harness", "--task-us", "V"], ""),
            (["bench-harness", "--sizes", "V"], ""),
            (["bench-harness", "--sizes", "1,V", "--task-us", "10", "--trial-ms", "50", "--repeat", "1"], ""),
            (["bench-harness", "--task-us", "10,V", "--sizes", "1", "--trial-ms", "50", "--repeat", "1"], ""),
            (["bench-harness", "--trial-ms", "V"], ""),
            (["bench-harness", "--repeat", "V"], ""),
            // The driver loads a closed port on loopback for 100 ms when it accepts the value.
            (["bench-driver", "--url", "http://127.0.0.1:1/", "--connections", "V", "--duration-ms", "100"], ""),
            (["bench-driver", "--url", "http://127.0.0.1:1/", "--connections", "1", "--duration-ms", "V"], ""),
            (
                ["bench-driver", "--url", "http://127.0.0.1:1/", "--duration-ms", "100", "--warmup-ms", "V"], ""
            ),
            // observe watches a child of its own for 200 ms when it accepts the value.
            (["observe", "V", "--duration", "200ms"], ""),
            (["observe", "--duration", "V", "--", "/bin/sleep", "2"], "s"),
            (["observe", "--duration", "200ms", "--rate", "V", "--", "/bin/sleep", "2"], ""),
            (["observe", "--duration", "200ms", "--parallelism", "V", "--", "/bin/sleep", "2"], ""),
            (["observe", "--duration", "200ms", "--throughput", "V", "--", "/bin/sleep", "2"], "/s"),
            (
                ["observe", "--duration", "200ms", "--throughput", "10/s", "--latency", "V", "--", "/bin/sleep", "2"],
                "ms"
            ),
            (["observe", "--duration", "200ms", "--seed", "V", "--", "/bin/sleep", "2"], ""),
        ]
        var cases: [Case] = []
        for (template, unit) in templates {
            for value in Self.values {
                let arguments = template.map { $0.replacingOccurrences(of: "V", with: value + unit) }
                // A value after a flag as its own word: ArgumentParser would read "-1" as a flag.
                let joined = arguments.enumerated().compactMap { index, word -> String? in
                    if index + 1 < arguments.count, word.hasPrefix("--"), arguments[index + 1].hasPrefix("-"),
                        template[index + 1].contains("V")
                    {
                        return nil
                    }
                    if index > 0, word.hasPrefix("-"), template[index].contains("V"),
                        arguments[index - 1].hasPrefix("--")
                    {
                        return arguments[index - 1] + "=" + word
                    }
                    return word
                }
                cases.append(
                    Case(
                        label: "\(template[0]) \(template.last { $0.hasPrefix("--") } ?? "") \(value + unit)",
                        arguments: joined))
            }
        }
        let outcome = Self.run(cases, in: directory)
        #expect(
            outcome.failures.isEmpty,
            "\(outcome.failures.count) of \(cases.count) cases broke the property:\n\(outcome.failures.prefix(20).joined(separator: "\n"))"
        )
        #expect(
            outcome.refused > cases.count / 2 && outcome.accepted > 10,
            "refused \(outcome.refused), accepted \(outcome.accepted) of \(cases.count)")
    }
}

extension ExtremeValueTests {
    /// What a reader made of a copy, whatever directory it was read from: two copies with the
    /// same identity give a command the same input.
    static func identity(_ run: RunData) -> String {
        var run = run
        run.runID = ""
        return String(reflecting: run)
    }

    static func identity(_ source: PlanSource) -> String {
        var source = source
        source.run.path = ""
        return String(reflecting: source)
    }
}

/// The pretty-printed JSON of run directories (`JSONExport`: one key or array element per
/// line), read line by line: which lines hold a number, under which key.
enum PrettyJSON {
    /// Lines holding a number, with the key path leading to it (array positions left out, and
    /// the copies a file repeats folded, so a key names one field wherever it is written).
    static func numberLines(_ lines: [String]) -> [(line: Int, key: String)] {
        var path: [String] = []
        var found: [(Int, String)] = []
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let key = line.hasPrefix("\"") ? String(line.dropFirst().prefix { $0 != "\"" }) : nil
            let rest = key.map { _ in line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces) } ?? line
            if rest.hasPrefix("{") || rest.hasPrefix("[") {
                if let key { path.append(key) } else { path.append("") }
                if rest.hasPrefix("{}") || rest.hasPrefix("[]") { path.removeLast() }
                continue
            }
            if line.hasPrefix("}") || line.hasPrefix("]") {
                if !path.isEmpty { path.removeLast() }
                continue
            }
            let value = rest.hasSuffix(",") ? String(rest.dropLast()) : rest
            guard value.first.map({ $0 == "-" || $0.isNumber }) == true else { continue }
            // `combinations` repeats the best recommendation, `plan` the run's settings and
            // `plan.spec` its workload: one field, wherever it is written.
            var keys = (path + [key ?? ""]).filter { !$0.isEmpty }
            if keys.first == "combinations" || keys.first == "plan" { keys.removeFirst() }
            if keys.first == "spec" { keys[0] = "workload" }
            found.append((index, keys.joined(separator: ".")))
        }
        return found
    }

    /// The line with its number replaced by `value` (keeping the key and a trailing comma).
    static func replacingNumber(_ line: String, with value: String) -> String {
        let comma = line.hasSuffix(",") ? "," : ""
        let body = comma.isEmpty ? line : String(line.dropLast())
        guard let colon = body.range(of: "\" : ") else {
            let indent = body.prefix { $0 == " " }
            return indent + value + comma
        }
        return String(body[..<colon.upperBound]) + value + comma
    }
}
