import PoolSizeModel

extension SweepPlan {
    /// Why a run recorded in `info` is not this plan, or nil when it is: `--resume` continues
    /// a run only when everything that decides its trials and their order is the same.
    public func difference(from info: RunInfo) -> String? {
        var planned: [Int]? = nil
        if case let .explicit(list) = sizes { planned = list }
        let checks: [String?] = [
            info.workload.flatMap { $0 == spec ? nil : "its workload was \(Self.describe($0)), this sweep's is \(Self.describe(spec))" },
            Self.differs("seed", info.seed.map(String.init), String(seed)),
            Self.differs("--repeat", info.repetitions.map(String.init), String(repetitions)),
            Self.differs("--warmup", info.warmupTrials.map(String.init), String(warmupTrials)),
            Self.differs("--pool", info.pools.map { $0.map(\.rawValue).joined(separator: ",") }, pools.map(\.rawValue).joined(separator: ",")),
            Self.differs("--qos", info.tiers.map { $0.map(\.rawValue).joined(separator: ",") }, tiers.map(\.rawValue).joined(separator: ",")),
            Self.differs("--primitive", info.primitives.map { $0.map(\.rawValue).joined(separator: ",") }, primitives.map(\.rawValue).joined(separator: ",")),
            Self.differs("--target-utilization", info.targetUtilization.map { UnitFormat.number($0) }, UnitFormat.number(targetUtilization)),
            Self.differs("--tolerance", info.tolerance.map { UnitFormat.number($0) }, UnitFormat.number(tolerance)),
            Self.differs("--search", (info.search ?? .grid).rawValue, search.rawValue),
            Self.differs("core count", info.machine.map { String($0.cores.effective) }, String(cores)),
            Self.differs("--sizes", info.autoSizes.map { $0 ? "auto" : "a list" }, planned == nil ? "auto" : "a list"),
            planned.flatMap { Self.differs("--sizes", info.sizes.map(Self.list), Self.list($0)) },
            info.arrival == arrival ? nil : "its arrivals were \(Self.describe(info.arrival)), this sweep's are \(Self.describe(arrival))",
            Self.recordedTrialMilliseconds(info).flatMap { recorded in
                Self.differs("--trial-ms", recorded.map(String.init) ?? "not given", trialMilliseconds.map(String.init) ?? "not given")
            },
        ]
        return checks.compactMap { $0 }.first
    }

    /// The run's `--trial-ms`: `.some(nil)` when it was not given, nil when the file cannot
    /// tell (no `trial_ms` and no command line). Files of earlier versions lack `trial_ms`; their
    /// command line still says.
    static func recordedTrialMilliseconds(_ info: RunInfo) -> Int?? {
        if let recorded = info.trialMilliseconds { return .some(recorded) }
        guard let words = info.commandLine else { return nil }
        for (index, word) in words.enumerated() {
            if word == "--trial-ms", index + 1 < words.count { return .some(Int(words[index + 1])) }
            if word.hasPrefix("--trial-ms=") { return .some(Int(word.dropFirst("--trial-ms=".count))) }
        }
        return .some(nil)
    }

    static func differs(_ name: String, _ recorded: String?, _ now: String) -> String? {
        guard let recorded, recorded != now else { return nil }
        return "its \(name) was \(recorded), this sweep's is \(now)"
    }

    static func describe(_ spec: WorkloadSpec) -> String {
        "'\(spec.name)' (C \(UnitFormat.number(spec.cpuMicroseconds)) µs, W \(UnitFormat.number(spec.waitMicroseconds)) µs, jitter \(spec.jitter.rawValue), trial \(spec.trialMilliseconds) ms, critical \(UnitFormat.number(spec.criticalMicroseconds)) µs)"
    }

    static func describe(_ arrival: ArrivalPlan?) -> String {
        guard let arrival else { return "a closed loop (no --arrival-rate)" }
        let rates = arrival.ratesPerSecond.map { UnitFormat.number($0) + "/s" }.joined(separator: ",")
        let slo = arrival.latencySLOMicroseconds.map { ", p\(UnitFormat.number(arrival.sloPercentile)) ≤ \(UnitFormat.number($0)) µs" } ?? ""
        return "\(rates) \(arrival.process.rawValue)\(slo)"
    }

    static func list(_ sizes: [Int]) -> String { sizes.map(String.init).joined(separator: ",") }
}
