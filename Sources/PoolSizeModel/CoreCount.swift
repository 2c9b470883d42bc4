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

    /// Reads the inputs and the effective count as `encode(to:)` writes them. The effective
    /// count is derived from the inputs, so a file whose recorded count is not the one they give
    /// is damaged, and refused rather than read one way or the other.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            online: try c.decode(Int.self, forKey: .online), affinity: try c.decode(Int.self, forKey: .affinity),
            cgroupQuota: try c.decodeIfPresent(Int.self, forKey: .cgroupQuota),
            override: try c.decodeIfPresent(Int.self, forKey: .override))
        let recorded = try c.decode(Int.self, forKey: .effective)
        guard recorded == effective else {
            throw DecodingError.dataCorruptedError(
                forKey: .effective, in: c,
                debugDescription: "effective \(recorded), but its inputs give \(effective)")
        }
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
