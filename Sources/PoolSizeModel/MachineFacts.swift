/// What the machine offered a run. libdispatch and Foundation count CPUs from the affinity mask
/// or `_SC_NPROCESSORS_ONLN`, never from the cgroup quota (docs/platform.md), so all three are kept
/// and the effective count is derived from them.
package struct CoreCount: Equatable, Sendable, Codable {
    /// CPUs online (`_SC_NPROCESSORS_ONLN`).
    package var online: Int
    /// CPUs in this process's affinity mask (`sched_getaffinity`).
    package var affinity: Int
    /// ceil(quota / period) from cgroup v2 `cpu.max` or v1 `cpu.cfs_quota_us`; nil when unlimited.
    package var cgroupQuota: Int?
    /// `--cores`, when the user overrode the derived count.
    package var override: Int?

    /// A count from its inputs.
    package init(online: Int, affinity: Int, cgroupQuota: Int?, override: Int? = nil) {
        self.online = online
        self.affinity = affinity
        self.cgroupQuota = cgroupQuota
        self.override = override
    }

    /// min(affinity, cgroup quota), unless overridden.
    package var effective: Int {
        if let override { return override }
        return max(1, min(affinity, cgroupQuota ?? affinity))
    }

    enum CodingKeys: String, CodingKey { case online, affinity, cgroupQuota, override, effective }

    /// A count recorded with only some of its inputs reads as far as it goes: a missing
    /// affinity or online count falls back on the recorded effective count.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let effective = try c.decodeIfPresent(Int.self, forKey: .effective)
        guard let affinity = try c.decodeIfPresent(Int.self, forKey: .affinity) ?? effective else {
            throw DecodingError.keyNotFound(
                CodingKeys.affinity,
                .init(codingPath: c.codingPath, debugDescription: "no affinity or effective core count"))
        }
        self.affinity = affinity
        online = try c.decodeIfPresent(Int.self, forKey: .online) ?? affinity
        cgroupQuota = try c.decodeIfPresent(Int.self, forKey: .cgroupQuota)
        override = try c.decodeIfPresent(Int.self, forKey: .override)
        if let effective, override == nil, effective != self.effective { override = effective }
    }

    /// Writes the inputs and the effective count.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(online, forKey: .online)
        try c.encode(affinity, forKey: .affinity)
        try c.encodeIfPresent(cgroupQuota, forKey: .cgroupQuota)
        try c.encodeIfPresent(override, forKey: .override)
        try c.encode(effective, forKey: .effective)
    }

    /// How `effective` would be derived without an override: the reports say it beside the
    /// override (PoolSizeOutput words an override, which the user gave).
    package var derived: Int { CoreCount(online: online, affinity: affinity, cgroupQuota: cgroupQuota).effective }

    /// How `effective` was derived from the machine, for reports (an override aside).
    package var measuredDerivation: String {
        let quota = cgroupQuota.map { "cgroup quota \($0)" } ?? "no cgroup quota"
        return "min(affinity \(affinity), \(quota)); \(online) online"
    }
}

/// Facts recorded with every run so results can be compared and reproduced (docs/conventions.md).
package struct MachineFacts: Equatable, Sendable, Codable {
    /// Cores the run sized for and how they were derived.
    package var cores: CoreCount
    /// `model name` from /proc/cpuinfo.
    package var cpuModel: String
    /// `uname` system, release and machine.
    package var kernel: String
    /// The Swift compiler that built poolsize.
    package var swiftVersion: String
    /// Timer slack of the measuring threads, in nanoseconds (`/proc/self/timerslack_ns`).
    package var timerSlackNanoseconds: Int?
    /// Nice value each QoS tier's workers actually ran at, measured, keyed by tier name.
    package var effectiveNiceByTier: [String: Int]
    /// The machine's host name.
    package var hostname: String

    /// Facts as measured.
    package init(
        cores: CoreCount, cpuModel: String, kernel: String, swiftVersion: String, timerSlackNanoseconds: Int?,
        effectiveNiceByTier: [String: Int], hostname: String
    ) {
        self.cores = cores
        self.cpuModel = cpuModel
        self.kernel = kernel
        self.swiftVersion = swiftVersion
        self.timerSlackNanoseconds = timerSlackNanoseconds
        self.effectiveNiceByTier = effectiveNiceByTier
        self.hostname = hostname
    }

    enum CodingKeys: String, CodingKey {
        case cores, cpuModel, kernel, swiftVersion, timerSlackNanoseconds, effectiveNiceByTier, hostname
    }

    /// The cores are what a reader cannot do without; the rest reads as "not recorded".
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            cores: try c.decode(CoreCount.self, forKey: .cores),
            cpuModel: try c.decodeIfPresent(String.self, forKey: .cpuModel) ?? "",
            kernel: try c.decodeIfPresent(String.self, forKey: .kernel) ?? "",
            swiftVersion: try c.decodeIfPresent(String.self, forKey: .swiftVersion) ?? "",
            timerSlackNanoseconds: try c.decodeIfPresent(Int.self, forKey: .timerSlackNanoseconds),
            effectiveNiceByTier: try c.decodeIfPresent([String: Int].self, forKey: .effectiveNiceByTier) ?? [:],
            hostname: try c.decodeIfPresent(String.self, forKey: .hostname) ?? "")
    }
}
