import CPoolSizeSys
import Foundation
import PoolSizeModel
import PoolSizeProcess

/// What can be read of a process before sampling it: whether it exists, whose it is, whether
/// the kernel keeps schedstat and lets us read its blocking syscalls, its command line and the
/// CPUs it may use. Each answer that restricts the observation becomes an `ObservationLimit`.
package struct TargetProbe: Sendable {
    /// The process.
    package var pid: Int32
    /// Its command line.
    package var command: String
    /// The CPUs it may use: its own affinity mask and cgroup quota (not ours: it may run in
    /// another container or with taskset).
    package var cores: CoreCount
    /// Limits known before sampling starts.
    package var limits: [ObservationLimit]

    /// Why a process cannot be observed at all.
    package enum Failure: Error, Equatable, Sendable {
        /// No process with that id.
        case notFound(pid: Int32)
        /// Not Linux, or a CPU architecture whose syscall numbers are not known.
        case unsupported
        /// Every thread of it has exited; only the zombie its parent has not reaped is left.
        case exited(pid: Int32)
        /// A kernel thread (kthreadd, a kworker): no user-space code, so no pool of its own.
        case kernelThread(pid: Int32)
    }

    /// Whether `pid` is a process observe can sample: there, not a zombie, not a kernel thread.
    /// A zombie's /proc files stay readable and a kernel thread's states read as blocking
    /// calls, so either gave figures of nothing; checked before anything is written.
    package static func check(pid: Int32) throws(Failure) {
        guard Platform.hasProcThreads else { throw .unsupported }
        guard case let .success(stat) = ProcFile.readOnce("/proc/\(pid)/stat"), !stat.isEmpty else {
            throw .notFound(pid: pid)
        }
        if let flags = ProcText.flags(of: stat), flags & ProcText.kernelThreadFlag != 0 {
            throw .kernelThread(pid: pid)
        }
        // The leader may be a zombie while its other threads run (it called pthread_exit):
        // the process has exited only when no thread is left alive.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? ["\(pid)"]
        let alive = threads.contains { tid in
            guard case let .success(text) = ProcFile.readOnce("/proc/\(pid)/task/\(tid)/stat"),
                let state = ProcText.state(of: text)
            else { return false }
            return state != "Z" && state != "X"
        }
        guard alive else { throw .exited(pid: pid) }
    }

    /// Probes `pid`; `parallelism` becomes the cores' override.
    package static func probe(pid: Int32, parallelism: Int?) throws(Failure) -> TargetProbe {
        guard Platform.hasProcThreads else { throw .unsupported }
        guard SyscallArchitecture.current != nil else { throw .unsupported }
        guard case let .success(status) = ProcFile.readOnce("/proc/\(pid)/status"), !status.isEmpty else {
            throw .notFound(pid: pid)
        }
        var limits: [ObservationLimit] = []
        if case let .failure(error) = ProcFile.readOnce("/proc/\(pid)/task/\(pid)/schedstat"), error.errno == ENOENT {
            limits.append(ObservationLimit(kind: .noSchedstat, pid: pid))
        }
        let owner = ProcText.realUID(status)
        if let owner, owner != geteuid(), geteuid() != 0 {
            limits.append(ObservationLimit(kind: .otherUser, pid: pid, ownerUID: owner))
        } else if case let .failure(error) = ProcFile.readOnce("/proc/\(pid)/task/\(pid)/syscall"),
            error.errno == EACCES || error.errno == EPERM
        {
            limits.append(
                ObservationLimit(
                    kind: .syscallDenied, pid: pid, yamaPtraceScope: yamaPtraceScope(),
                    dumpable: dumpable(pid: pid, status: status)))
        }
        let commandLine =
            (try? ProcFile.readOnce("/proc/\(pid)/cmdline").get()).map { text in
                text.split(separator: "\0").joined(separator: " ")
            } ?? ""
        return TargetProbe(
            pid: pid, command: commandLine, cores: cores(of: pid, override: parallelism), limits: limits)
    }

    /// Whether `pid` is dumpable, told from outside: the kernel makes a process's /proc files
    /// root's while it is not (proc(5), /proc/PID), and its effective user's otherwise; nil
    /// when it runs as root, where the two look alike.
    package static func dumpable(pid: Int32, status: String) -> Bool? {
        var info = stat()
        guard let effective = ProcText.effectiveUID(status), effective != 0, stat("/proc/\(pid)", &info) == 0 else {
            return nil
        }
        if info.st_uid == effective { return true }
        return info.st_uid == 0 ? false : nil
    }

    /// Yama's ptrace_scope (0 classic, 1 children only, 2 admin only, 3 none); nil without Yama.
    package static func yamaPtraceScope() -> Int? {
        (try? ProcFile.readOnce("/proc/sys/kernel/yama/ptrace_scope").get()).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The target's CPUs: its affinity mask (sched_getaffinity on its pid) and the smallest CPU
    /// quota on the way from its cgroup to the root (cgroup v2 cpu.max, v1 cfs_quota_us /
    /// cfs_period_us), rounded up as the sweep's core count is (docs/platform.md).
    static func cores(of pid: Int32, override: Int?) -> CoreCount {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let affinity = Int(poolsize_affinity_cpu_count_of(pid))
        let cgroups = (try? ProcFile.readOnce("/proc/\(pid)/cgroup").get()) ?? ""
        return CoreCount(
            online: online, affinity: affinity > 0 ? affinity : online,
            cgroupQuota: cgroupQuota(procCgroup: cgroups, root: "/sys/fs/cgroup"), override: override)
    }

    /// The smallest quota, in whole CPUs rounded up, along the cgroup paths in a
    /// /proc/PID/cgroup text; nil when unlimited.
    static func cgroupQuota(procCgroup text: String, root: String) -> Int? {
        var quotas: [Int] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                for directory in ancestors(path) {
                    guard let text = try? ProcFile.readOnce("\(root)\(directory)/cpu.max").get() else { continue }
                    let parts = text.split(whereSeparator: \.isWhitespace)
                    if parts.count >= 2, let quota = Double(parts[0]), let period = Double(parts[1]), quota > 0,
                        period > 0
                    {
                        quotas.append(Int((quota / period).rounded(.up)))
                    }
                }
            } else if fields[1].split(separator: ",").contains("cpu") {
                for base in ["\(root)/cpu", "\(root)/cpu,cpuacct"] {
                    for directory in ancestors(path) {
                        guard let q = try? ProcFile.readOnce("\(base)\(directory)/cpu.cfs_quota_us").get(),
                            let p = try? ProcFile.readOnce("\(base)\(directory)/cpu.cfs_period_us").get(),
                            let quota = Double(q.trimmingCharacters(in: .whitespacesAndNewlines)),
                            let period = Double(p.trimmingCharacters(in: .whitespacesAndNewlines)),
                            quota > 0, period > 0
                        else { continue }
                        quotas.append(Int((quota / period).rounded(.up)))
                    }
                }
            }
        }
        return quotas.min()
    }

    /// `/a/b` → ``, `/a`, `/a/b`: every cgroup whose limit applies.
    static func ancestors(_ path: String) -> [String] {
        let parts = path.split(separator: "/")
        return (0...parts.count).map { count in count == 0 ? "" : "/" + parts.prefix(count).joined(separator: "/") }
    }

    /// /proc/pressure/cpu `some avg10`, percent; nil without PSI.
    package static func cpuPressure() -> Double? {
        guard let text = try? ProcFile.readOnce("/proc/pressure/cpu").get() else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("some") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst(6))
            }
        }
        return nil
    }
}
