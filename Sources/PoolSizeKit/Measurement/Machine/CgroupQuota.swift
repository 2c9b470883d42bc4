import Foundation

/// The CPU quota the kernel enforces on this process's cgroup, which libdispatch and
/// Foundation ignore when they count CPUs (docs/platform.md).
package enum CgroupQuota {
    /// Parses cgroup v2 `cpu.max` ("max 100000" or "200000 100000"): ceil(quota / period),
    /// nil when unlimited or unreadable.
    package static func parseV2(_ text: String) -> Int? {
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count >= 2, parts[0] != "max", let quota = Double(parts[0]), let period = Double(parts[1]),
            quota > 0, period > 0
        else { return nil }
        return Int((quota / period).rounded(.up))
    }

    /// Parses cgroup v1 `cpu.cfs_quota_us` and `cpu.cfs_period_us`; a quota of -1 is unlimited.
    package static func parseV1(quota: String, period: String) -> Int? {
        guard let q = Double(quota.trimmingCharacters(in: .whitespacesAndNewlines)),
            let p = Double(period.trimmingCharacters(in: .whitespacesAndNewlines)), q > 0, p > 0
        else { return nil }
        return Int((q / p).rounded(.up))
    }

    /// The cgroup paths of this process from `/proc/self/cgroup` text: the v2 path ("0::/x")
    /// and the v1 path of the cpu controller ("4:cpu,cpuacct:/x").
    package static func paths(fromProcCgroup text: String) -> (v2: String?, v1CPU: String?) {
        var v2: String?, v1: String?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0" && fields[1].isEmpty { v2 = String(fields[2]) }
            if fields[1].split(separator: ",").contains("cpu") { v1 = String(fields[2]) }
        }
        return (v2, v1)
    }

    /// Reads the quota of the running process; the smallest quota found on the way from its
    /// cgroup up to the root counts, since any ancestor's limit applies.
    package static func current(root: String = "/sys/fs/cgroup") -> Int? {
        let procText = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        let (v2Path, v1Path) = paths(fromProcCgroup: procText)
        var quotas: [Int] = []
        for dir in ancestors(of: v2Path ?? "/") {
            if let text = read("\(root)\(dir)/cpu.max"), let q = parseV2(text) { quotas.append(q) }
        }
        for base in ["\(root)/cpu", "\(root)/cpu,cpuacct"] {
            for dir in ancestors(of: v1Path ?? "/") {
                if let q = read("\(base)\(dir)/cpu.cfs_quota_us"), let p = read("\(base)\(dir)/cpu.cfs_period_us"),
                    let value = parseV1(quota: q, period: p)
                {
                    quotas.append(value)
                }
            }
        }
        return quotas.min()
    }

    static func ancestors(of path: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var result = [""]
        while !parts.isEmpty {
            result.append("/" + parts.joined(separator: "/"))
            parts.removeLast()
        }
        return result
    }

    private static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
}
