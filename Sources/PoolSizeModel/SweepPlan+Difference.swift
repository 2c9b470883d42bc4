extension SweepPlan {
    /// Why a run recorded under `recorded` is not this plan, or nil when it is: `--resume`
    /// continues a run only under an equal plan (the run id aside, which names the directory).
    /// Names the first field that differs, as its parameter; two servers started by different
    /// commands by both commands first (`serverCommandDifference`).
    package func difference(from recorded: SweepPlan) -> String? {
        if let commands = Self.serverCommandDifference(target, recorded.target) { return commands }
        let now = Mirror(reflecting: self).children, then = Mirror(reflecting: recorded).children
        // A chain's row is continued with the sizes its search adds.
        let growing = target.server?.chainRow != nil && recorded.target.server?.chainRow != nil
        for (a, b) in zip(now, then) {
            guard let label = a.label, label != "runID", !(growing && label == "sizes") else { continue }
            guard String(reflecting: a.value) != String(reflecting: b.value) else { continue }
            var mine = Self.describe(label, a.value), theirs = Self.describe(label, b.value)
            // Two values that differ where the short form does not look: a spec by the first
            // field of its file that differs, anything else whole.
            if mine == theirs, let now = a.value as? WorkloadSpec, let then = b.value as? WorkloadSpec,
                let field = Self.specDifference(now, then)
            {
                return "its workload's \(field.key) was \(field.theirs), this sweep's is \(field.mine)"
            }
            if mine == theirs { (mine, theirs) = (String(reflecting: a.value), String(reflecting: b.value)) }
            return "its \(Self.name(label)) was \(theirs), this sweep's is \(mine)"
        }
        return nil
    }

    /// Two server sweeps whose servers start by different commands, both named as the run and
    /// this sweep record them; nil when either is no server sweep or the commands are one. The
    /// recorded command is compared, not the workload's description: different commands can be
    /// described alike, and the description is only worded from the command. Both sides are
    /// masked alike (`Secrets.commandText`) before they are recorded, so a secret never makes
    /// two commands differ, and a command that differs only in a secret cannot be told apart.
    static func serverCommandDifference(_ mine: SweepTarget, _ theirs: SweepTarget) -> String? {
        guard let now = mine.server?.command, let then = theirs.server?.command, now != then else { return nil }
        return "its \(PoolSizeError.Parameter.server.mention) command was '\(then)', this sweep's is '\(now)'"
    }

    /// The first field of a spec file (`max_tasks`, `description`) in which two specs differ,
    /// each value as the file writes it (`WorkloadSpec.yaml`), "not set" when it leaves it out.
    static func specDifference(
        _ mine: WorkloadSpec, _ theirs: WorkloadSpec
    ) -> (key: String, mine: String, theirs: String)? {
        func fields(_ spec: WorkloadSpec) -> [String: String] {
            var fields: [String: String] = [:]
            for line in spec.yaml.split(separator: "\n") {
                guard let colon = line.firstRange(of: ": ") else { continue }
                fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
            }
            return fields
        }
        let now = fields(mine), then = fields(theirs)
        for key in WorkloadSpec.fieldNames where now[key] != then[key] {
            return (key, now[key] ?? "not set", then[key] ?? "not set")
        }
        return nil
    }

    /// The word a field is known by in messages when it is no `PoolSizeError.Parameter`; the
    /// others are mentioned as their parameter (the command line prints its flag).
    /// (`busyThreshold` has no flag: the command line keeps the default.)
    static let words = [
        "spec": "workload", "cores": "core count", "seed": "seed", "load": "load", "busyThreshold": "busy threshold",
        "target": "server",
    ]

    /// How messages name the field `label`.
    static func name(_ label: String) -> String {
        words[label] ?? PoolSizeError.Parameter(rawValue: label)?.mention ?? label
    }

    /// A field's value as messages show it.
    static func describe(_ label: String, _ value: Any) -> String {
        // Optionals by label: a nil casts to any optional type.
        if label == "trialMilliseconds" { return (value as? Int).map(String.init) ?? "not given" }
        switch value {
        case let load as Load:
            return load.summary
        case let spec as WorkloadSpec:
            return
                "'\(spec.name)' (C \(UnitFormat.number(spec.cpuMicroseconds)) µs, W \(UnitFormat.number(spec.waitMicroseconds)) µs, jitter \(spec.jitter.rawValue), trial \(spec.trialMilliseconds) ms, critical \(UnitFormat.number(spec.criticalMicroseconds)) µs)"
        case let sizes as SizeSelection:
            return sizes.text
        case let number as Double:
            return UnitFormat.number(number)
        case let list as [PoolKind]:
            return list.map(\.rawValue).joined(separator: ",")
        case let list as [QoSTier]:
            return list.map(\.rawValue).joined(separator: ",")
        case let list as [PrimitiveKind]:
            return list.map(\.rawValue).joined(separator: ",")
        case let mode as SearchMode:
            return mode.rawValue
        case let target as SweepTarget:
            return target.summary
        default:
            return String(describing: value)
        }
    }
}
