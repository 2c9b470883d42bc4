import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing

extension ExtremeValueTests {
    /// Every number in an observation's observation.json (Tests/Fixtures/extremes/observation,
    /// written by `observe --out` on pool_target), one field per copy (a field's every
    /// occurrence at once: each pool and slice repeats it), read by `report` and then
    /// `export --to openmetrics`; the fields a value leaves readable are reported together,
    /// one copy per value. And the number a `--counter` command prints.
    @Test func everyNumberOfAnObservation() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cases: [Case] = []
        var refusals = Refusals()
        let fixture = "observation"
        let lines = try String(
            contentsOf: Self.fixtures.appendingPathComponent("\(fixture)/observation.json"), encoding: .utf8
        ).components(separatedBy: "\n")
        let fields = Dictionary(grouping: PrettyJSON.numberLines(lines), by: \.key)
        #expect(fields.count > 40, "the fixture has the observation's fields: \(fields.keys.sorted())")
        func report(_ run: URL, label: String) -> Case {
            Case(
                label: label, arguments: ["report", run.path, "--plots", run.appendingPathComponent("plots").path],
                then: [["export", run.path, "--to", "openmetrics"]])
        }
        cases.append(
            report(try Self.copy(fixture, to: directory, name: "as-it-is", files: [:]), label: "observation as it is"))
        var batches: [Int: (lines: [String], singles: [Case])] = [:]
        for (f, key) in fields.keys.sorted().enumerated() {
            for (v, value) in Self.jsonValues.enumerated() {
                var mutated = lines
                for number in fields[key]! {
                    mutated[number.line] = PrettyJSON.replacingNumber(mutated[number.line], with: value)
                }
                let run = try Self.copy(
                    fixture, to: directory, name: "observation-\(f)-\(v)",
                    files: ["observation.json": mutated.joined(separator: "\n")])
                let label = "observation.json \(key)=\(value)"
                let c = report(run, label: label)
                if (try? RunDirectory(run).loadObservation()) != nil {
                    var batch = batches[v] ?? (lines, [])
                    for number in fields[key]! { batch.lines[number.line] = mutated[number.line] }
                    batch.singles.append(c)
                    batches[v] = batch
                } else if let c = refusals.binaryCase(
                    c, field: "observation.json \(key)",
                    read: { () throws(PoolSizeError) in _ = try RunDirectory(run).loadObservation() })
                {
                    cases.append(c)
                }
            }
        }
        for (v, batch) in batches.sorted(by: { $0.key < $1.key }) {
            let run = try Self.copy(
                fixture, to: directory, name: "observation-all-\(v)",
                files: ["observation.json": batch.lines.joined(separator: "\n")])
            guard batch.singles.count > 1, (try? RunDirectory(run).loadObservation()) != nil else {
                cases += batch.singles
                continue
            }
            var together = report(run, label: "observation.json \(batch.singles.count) fields=\(Self.jsonValues[v])")
            together.otherwise = batch.singles
            cases.append(together)
        }
        // The counter's total, read twice (the same both times): refused when it is not a number
        // ≥ 0 written in decimals, else no per-task figures (the total did not move).
        for value in Self.values {
            cases.append(
                Case(
                    label: "observe --counter printing \(value)",
                    arguments: [
                        "observe", "--duration", "200ms", "--counter", "/bin/echo \(value)", "--", "/bin/sleep", "2",
                    ]))
        }
        let outcome = Self.run(cases, in: directory)
        let failures = refusals.failures + outcome.failures
        #expect(
            failures.isEmpty,
            "\(failures.count) cases broke the property:\n\(failures.prefix(20).joined(separator: "\n"))")
        #expect(
            outcome.refused > 10 && outcome.accepted > 10,
            "refused \(outcome.refused), accepted \(outcome.accepted) (\(cases.count) cases)")
    }
}
