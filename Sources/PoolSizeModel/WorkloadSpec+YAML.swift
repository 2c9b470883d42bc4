import Foundation
import Yams

extension WorkloadSpec {
    /// The fields a spec file may hold, in the order `workloads/README.md` documents them.
    package static let fieldNames = [
        "name", "description", "cpu_us", "wait_us", "jitter", "jitter_spread",
        "trial_ms", "max_tasks", "critical_us", "file_write_kb", "file_read_kb", "phases",
    ]
    /// The fields of one entry of `phases:`.
    package static let phaseFieldNames = ["start_ms", "cpu_us", "wait_us"]

    /// Parses a YAML spec. `file` names the source in error messages. Every problem is reported
    /// with the field at fault and what would be accepted; unknown fields are refused so a typo
    /// (`wait_ms`) never silently falls back to a default.
    package static func parse(yaml: String, file: String) throws(PoolSizeError) -> WorkloadSpec {
        let node: Node?
        do { node = try Yams.compose(yaml: yaml) } catch {
            throw .invalidSpec(
                file: file, field: nil, message: "not valid YAML (\(oneLine(error))); see workloads/README.md")
        }
        guard let mapping = node?.mapping else {
            throw .invalidSpec(
                file: file, field: nil,
                message: "expected a mapping of fields (\(fieldNames.joined(separator: ", "))); see workloads/README.md"
            )
        }
        var fields = SpecFields(file: file)
        for (key, value) in mapping {
            guard let name = key.string, fieldNames.contains(name) else {
                throw .invalidSpec(
                    file: file, field: key.string ?? "?",
                    message: "unknown field; valid fields are \(fieldNames.joined(separator: ", "))")
            }
            fields.values[name] = value
        }
        // Upper bounds keep a spec from planning a sweep that never ends: a task of a minute's
        // CPU or ten minutes' wait, a trial of ten minutes.
        let cpu = try fields.number("cpu_us", required: true, minimum: 0, exclusive: true, maximum: 60_000_000)!
        var spec = WorkloadSpec(
            name: try fields.string("name", required: true)!,
            description: try fields.string("description", required: false) ?? "",
            cpuMicroseconds: cpu,
            waitMicroseconds: try fields.number("wait_us", required: false, minimum: 0, maximum: 600_000_000) ?? 0,
            jitter: try fields.jitter(),
            jitterSpread: try fields.number("jitter_spread", required: false, minimum: 0, maximum: 1) ?? 0.2,
            trialMilliseconds: try fields.integer("trial_ms", required: false, minimum: 1, maximum: 600_000) ?? 1000,
            maxTasks: try fields.integer("max_tasks", required: false, minimum: 1),
            criticalMicroseconds: try fields.number("critical_us", required: false, minimum: 0) ?? 0
        )
        spec.fileWriteKilobytes = try fields.number("file_write_kb", required: false, minimum: 0, maximum: 65536) ?? 0
        spec.fileReadKilobytes = try fields.number("file_read_kb", required: false, minimum: 0, maximum: 65536) ?? 0
        spec.phases = try fields.phases(cpu: spec.cpuMicroseconds, wait: spec.waitMicroseconds)
        if spec.criticalMicroseconds > spec.cpuMicroseconds {
            throw .invalidSpec(
                file: file, field: "critical_us",
                message:
                    "\(plain(spec.criticalMicroseconds)) exceeds cpu_us \(plain(spec.cpuMicroseconds)); the critical section is part of the task's CPU time"
            )
        }
        return spec
    }

    /// The spec as YAML, in the documented field order (what `poolsize list` and the shipped
    /// files show).
    package var yaml: String {
        let plainName =
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        var lines = ["name: " + (plainName ? name : Self.quoted(name))]
        if !description.isEmpty { lines.append("description: \(Self.quoted(description))") }
        lines.append("cpu_us: \(Self.plain(cpuMicroseconds))")
        lines.append("wait_us: \(Self.plain(waitMicroseconds))")
        lines.append("jitter: \(jitter.rawValue)")
        if jitter == .uniform { lines.append("jitter_spread: \(Self.plain(jitterSpread))") }
        lines.append("trial_ms: \(trialMilliseconds)")
        if let maxTasks { lines.append("max_tasks: \(maxTasks)") }
        if criticalMicroseconds > 0 { lines.append("critical_us: \(Self.plain(criticalMicroseconds))") }
        if fileWriteKilobytes > 0 { lines.append("file_write_kb: \(Self.plain(fileWriteKilobytes))") }
        if fileReadKilobytes > 0 { lines.append("file_read_kb: \(Self.plain(fileReadKilobytes))") }
        if !phases.isEmpty {
            lines.append("phases:")
            for phase in phases {
                lines.append("  - start_ms: \(phase.startMilliseconds)")
                lines.append("    cpu_us: \(Self.plain(phase.cpuMicroseconds))")
                lines.append("    wait_us: \(Self.plain(phase.waitMicroseconds))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML double-quoted scalar: reads back as exactly `text`, whatever it holds.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}

/// Typed access to a spec's raw fields, producing `PoolSizeError.invalidSpec` on bad values.
private struct SpecFields {
    let file: String
    var values: [String: Node] = [:]

    func string(_ name: String, required: Bool) throws(PoolSizeError) -> String? {
        guard let node = try present(name, required: required) else { return nil }
        guard let text = node.string, node.scalar != nil else {
            throw .invalidSpec(file: file, field: name, message: "expected text")
        }
        // Names and descriptions travel into CSV, gnuplot, Markdown and HTML; a line break or an
        // escape sequence there is never meant, so it is refused here rather than escaped later.
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .invalidSpec(
                file: file, field: name,
                message:
                    "contains a control character (\(String(format: "U+%04X", control.value))); write it on one line without tabs or escapes"
            )
        }
        return text
    }

    func number(_ name: String, required: Bool, minimum: Double, exclusive: Bool = false, maximum: Double? = nil)
        throws(PoolSizeError) -> Double?
    {
        guard let node = try present(name, required: required) else { return nil }
        guard let value = node.float ?? node.int.map(Double.init), value.isFinite else {
            throw .invalidSpec(file: file, field: name, message: "expected a number, got '\(node.string ?? "?")'")
        }
        if exclusive ? value <= minimum : value < minimum {
            throw .invalidSpec(
                file: file, field: name,
                message:
                    "must be \(exclusive ? ">" : ">=") \(WorkloadSpec.plain(minimum)), got \(WorkloadSpec.plain(value))"
            )
        }
        if let maximum, value > maximum {
            throw .invalidSpec(
                file: file, field: name,
                message: "must be <= \(WorkloadSpec.plain(maximum)), got \(WorkloadSpec.plain(value))")
        }
        return value
    }

    func integer(_ name: String, required: Bool, minimum: Int, maximum: Int? = nil) throws(PoolSizeError) -> Int? {
        guard let node = try present(name, required: required) else { return nil }
        guard let value = node.int else {
            throw .invalidSpec(file: file, field: name, message: "expected a whole number, got '\(node.string ?? "?")'")
        }
        if value < minimum {
            throw .invalidSpec(file: file, field: name, message: "must be >= \(minimum), got \(value)")
        }
        if let maximum, value > maximum {
            throw .invalidSpec(file: file, field: name, message: "must be <= \(maximum), got \(value)")
        }
        return value
    }

    /// `phases:`: a list of `start_ms` (required, rising strictly), `cpu_us` and `wait_us`
    /// (the spec's when left out), each within the limits of the spec's own fields.
    func phases(cpu: Double, wait: Double) throws(PoolSizeError) -> [WorkloadPhase] {
        guard let node = try present("phases", required: false) else { return [] }
        guard let list = node.sequence, list.count <= 100 else {
            throw .invalidSpec(
                file: file, field: "phases",
                message: "expected a list of at most 100 phases, each with start_ms and cpu_us and/or wait_us")
        }
        var phases: [WorkloadPhase] = []
        for (index, entry) in list.enumerated() {
            let name = "phases[\(index)]"
            guard let mapping = entry.mapping else {
                throw .invalidSpec(file: file, field: name, message: "expected a mapping of start_ms, cpu_us, wait_us")
            }
            var phase = SpecFields(file: file)
            for (key, value) in mapping {
                guard let field = key.string, WorkloadSpec.phaseFieldNames.contains(field) else {
                    let valid = WorkloadSpec.phaseFieldNames.joined(separator: ", ")
                    throw .invalidSpec(
                        file: file, field: "\(name).\(key.string ?? "?")",
                        message: "unknown field; valid fields are \(valid)")
                }
                phase.values["\(name).\(field)"] = value
            }
            let start = try phase.integer("\(name).start_ms", required: true, minimum: 0, maximum: 600_000)!
            if let previous = phases.last, start <= previous.startMilliseconds {
                let order =
                    "does not come after the previous phase's \(previous.startMilliseconds);"
                    + " list phases in order of start"
                throw .invalidSpec(file: file, field: "\(name).start_ms", message: "\(start) \(order)")
            }
            phases.append(
                WorkloadPhase(
                    startMilliseconds: start,
                    cpuMicroseconds: try phase.number(
                        "\(name).cpu_us", required: false, minimum: 0, exclusive: true, maximum: 60_000_000) ?? cpu,
                    waitMicroseconds: try phase.number(
                        "\(name).wait_us", required: false, minimum: 0, maximum: 600_000_000) ?? wait))
        }
        return phases
    }

    func jitter() throws(PoolSizeError) -> Jitter {
        guard let text = try string("jitter", required: false) else { return .none }
        guard let jitter = Jitter(rawValue: text) else {
            throw .invalidSpec(
                file: file, field: "jitter",
                message: "'\(text)' is not one of \(Jitter.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return jitter
    }

    private func present(_ name: String, required: Bool) throws(PoolSizeError) -> Node? {
        if let node = values[name], node.null == nil { return node }
        if required { throw .invalidSpec(file: file, field: name, message: "required field is missing") }
        return nil
    }
}
