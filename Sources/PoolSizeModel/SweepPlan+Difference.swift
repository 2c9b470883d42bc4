extension SweepPlan {
    /// Why a run recorded under `recorded` is not this plan, or nil when it is: `--resume`
    /// continues a run only under an equal plan (the run id aside, which names the directory).
    /// Names the first field that differs, as its flag.
    package func difference(from recorded: SweepPlan) -> String? {
        let now = Mirror(reflecting: self).children, then = Mirror(reflecting: recorded).children
        for (a, b) in zip(now, then) {
            guard let label = a.label, label != "runID" else { continue }
            guard String(reflecting: a.value) != String(reflecting: b.value) else { continue }
            var mine = Self.describe(label, a.value), theirs = Self.describe(label, b.value)
            // Two values that differ where the short form does not look: show them whole.
            if mine == theirs { (mine, theirs) = (String(reflecting: a.value), String(reflecting: b.value)) }
            return "its \(Self.names[label] ?? label) was \(theirs), this sweep's is \(mine)"
        }
        return nil
    }

    /// The flag (or the word) each field is known by in messages.
    static let names = [
        "spec": "workload", "sizes": "--sizes", "repetitions": "--repeat", "warmupTrials": "--warmup",
        "cores": "core count",
        "targetUtilization": "--target-utilization", "tolerance": "--tolerance", "seed": "seed", "pools": "--pool",
        "tiers": "--qos",
        "primitives": "--primitive", "readRatio": "--read-ratio", "trialMilliseconds": "--trial-ms",
        "contend": "--contend",
        "busyRetries": "--busy-retries", "busyThreshold": "--busy-threshold", "search": "--search", "load": "load",
    ]

    /// A field's value as messages show it.
    static func describe(_ label: String, _ value: Any) -> String {
        // Optionals by label: a nil casts to any optional type.
        if label == "trialMilliseconds" { return (value as? Int).map(String.init) ?? "not given" }
        if label == "load" {
            guard let arrival = (value as? Load)?.arrival else { return "a closed loop (no --arrival-rate)" }
            let rates = arrival.rates.map(\.description).joined(separator: ",")
            let slo =
                arrival.latencySLOMicroseconds.map {
                    ", p\(UnitFormat.number(arrival.sloPercentile)) ≤ \(UnitFormat.number($0)) µs"
                } ?? ""
            return "\(rates) \(arrival.process.rawValue)\(slo)"
        }
        switch value {
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
        default:
            return String(describing: value)
        }
    }
}
