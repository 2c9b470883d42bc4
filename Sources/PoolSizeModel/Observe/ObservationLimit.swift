/// Something `poolsize observe` could not measure on its target, and why. An observation with a
/// limit still reports everything else it measured; each limit prints as one line saying what
/// can and cannot be told, and maps to a distinct exit code (docs/guide/observe.md).
package struct ObservationLimit: Equatable, Sendable, Codable {
    /// The kinds of limit, each with its exit code.
    package enum Kind: String, CaseIterable, Equatable, Sendable, Codable {
        /// The target exited before the end of the observation; the figures cover the time until then.
        case targetExited
        /// `/proc/PID/task/TID/syscall` answered EACCES: the target is not dumpable, or Yama's
        /// ptrace_scope forbids reading a process that is not our child.
        case syscallDenied
        /// The target belongs to another user: its blocking syscalls and descriptors are closed to us.
        case otherUser
        /// The kernel has no schedstat (CONFIG_SCHED_INFO off): no exact CPU or run-queue time.
        case noSchedstat
        /// Not Linux: there is no /proc to read.
        case unsupportedPlatform
    }

    /// What was not measurable.
    package var kind: Kind
    /// The process it concerns.
    package var pid: Int32
    /// `targetExited`: seconds into the observation when it was last seen.
    package var afterSeconds: Double?
    /// `otherUser`: the target's real user id.
    package var ownerUID: UInt32?
    /// `syscallDenied`: /proc/sys/kernel/yama/ptrace_scope, when Yama is present.
    package var yamaPtraceScope: Int?

    /// Keys as a snake_cased file reads back (`owner_uid` → `ownerUid`).
    enum CodingKeys: String, CodingKey {
        case kind, pid, afterSeconds, yamaPtraceScope
        case ownerUID = "ownerUid"
    }

    /// A limit of `kind` on `pid`.
    package init(
        kind: Kind, pid: Int32, afterSeconds: Double? = nil, ownerUID: UInt32? = nil, yamaPtraceScope: Int? = nil
    ) {
        self.kind = kind
        self.pid = pid
        self.afterSeconds = afterSeconds
        self.ownerUID = ownerUID
        self.yamaPtraceScope = yamaPtraceScope
    }

    /// The process exit code of an observation that ran into this limit; the first limit of a
    /// run decides. 6–9 sit beside the verdict codes 2–5: something was measured.
    package var exitCode: Int32 {
        switch kind {
        case .targetExited: return 6
        case .syscallDenied: return 7
        case .otherUser: return 8
        case .noSchedstat: return 9
        case .unsupportedPlatform: return 69  // EX_UNAVAILABLE
        }
    }

    /// One line: what is still measured and what is not, and what would lift the limit.
    package var message: String {
        switch kind {
        case .targetExited:
            let when = afterSeconds.map { " after \(UnitFormat.number($0)) s" } ?? ""
            return
                "pid \(pid) exited\(when): the figures cover the observation until then; observe a process that outlives \(PoolSizeError.Parameter.observeDuration.mention), or shorten it"
        case .syscallDenied:
            let yama =
                yamaPtraceScope.map { $0 >= 1 ? " (Yama ptrace_scope is \($0): only children can be read)" : "" } ?? ""
            return
                "pid \(pid): blocking syscalls are unreadable (EACCES\(yama)): CPU, run-queue time and thread states are measured, blocked time is not split into IO, idle and ambiguous; start the target with 'poolsize observe -- CMD', or observe as its user with a dumpable process"
        case .otherUser:
            let owner = ownerUID.map { " (uid \($0))" } ?? ""
            return
                "pid \(pid) belongs to another user\(owner): CPU, run-queue time and thread states are measured, its blocking syscalls and sockets are not; run observe as that user or as root"
        case .noSchedstat:
            return
                "pid \(pid): this kernel has no schedstat (CONFIG_SCHED_INFO): CPU comes from stat's clock ticks, run-queue time is not measured (running and runnable are told apart by nothing), so a CPU-saturated pool cannot be recognised; use a kernel with CONFIG_SCHED_INFO"
        case .unsupportedPlatform:
            return
                "observe reads Linux /proc: on this system nothing can be measured; run it on the Linux host of the process"
        }
    }
}
