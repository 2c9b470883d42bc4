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
        /// The target has exited and is a zombie its parent has not reaped: nothing is observed.
        case zombie
        /// The target is a kernel thread: it runs no user-space code, so it has no pool to size.
        case kernelThread
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
    /// `syscallDenied`: whether observe started the target (`observe -- CMD`); nil when unknown.
    package var startedByObserver: Bool?
    /// `syscallDenied`: false when the target is not dumpable (its /proc files belong to root
    /// while it runs as another user: a setuid program, or prctl PR_SET_DUMPABLE 0); nil when
    /// that cannot be told.
    package var dumpable: Bool?

    /// Keys as a snake_cased file reads back (`owner_uid` → `ownerUid`).
    enum CodingKeys: String, CodingKey {
        case kind, pid, afterSeconds, yamaPtraceScope, startedByObserver, dumpable
        case ownerUID = "ownerUid"
    }

    /// A limit of `kind` on `pid`.
    package init(
        kind: Kind, pid: Int32, afterSeconds: Double? = nil, ownerUID: UInt32? = nil, yamaPtraceScope: Int? = nil,
        startedByObserver: Bool? = nil, dumpable: Bool? = nil
    ) {
        self.kind = kind
        self.pid = pid
        self.afterSeconds = afterSeconds
        self.ownerUID = ownerUID
        self.yamaPtraceScope = yamaPtraceScope
        self.startedByObserver = startedByObserver
        self.dumpable = dumpable
    }

    /// The process exit code of an observation that ran into this limit; the first limit of a
    /// run decides. 6–9 sit beside the verdict codes 2–5: something was measured; 10 and 11
    /// refuse a target before anything is (69 where nothing can be observed at all).
    package var exitCode: Int32 {
        switch kind {
        case .targetExited: return 6
        case .syscallDenied: return 7
        case .otherUser: return 8
        case .noSchedstat: return 9
        case .unsupportedPlatform: return 69  // EX_UNAVAILABLE
        case .zombie: return 10
        case .kernelThread: return 11
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
            let (cause, fix) = syscallDeniedCause
            return
                "pid \(pid): blocking syscalls are unreadable (EACCES\(cause)): CPU, run-queue time and thread states are measured, blocked time is not split into IO, idle and ambiguous; \(fix)"
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
        case .zombie:
            return
                "pid \(pid) has exited (zombie: its parent has not reaped it yet), so there is nothing to observe; give the PID of a running process (ps -e), or start the target with 'poolsize observe [options] -- CMD ARGS…'"
        case .kernelThread:
            return
                "pid \(pid) is a kernel thread: it runs no user-space code, so it has no pool to size; give the PID of an application's process (ps -e lists kernel threads in [brackets])"
        }
    }

    /// Why the syscalls were refused, and the one fix that lifts it. Starting the target under
    /// observe helps only where Yama's ptrace_scope 1 is the cause: not for a target observe
    /// started already, nor for one that is not dumpable, nor under scope 2 or 3.
    private var syscallDeniedCause: (cause: String, fix: String) {
        switch yamaPtraceScope {
        case 3?:
            return (
                " (Yama ptrace_scope is 3: no process may read them, root included)",
                "nothing lifts this until the machine boots with kernel.yama.ptrace_scope below 3"
            )
        case 2?:
            return (
                " (Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE may read them)", "run observe as root"
            )
        default:
            // A child of observe's passes Yama's check: what refuses it is its dumpability.
            if dumpable == false || startedByObserver == true {
                return (
                    ": the process is not dumpable (a setuid or setgid program, or one that called prctl "
                        + "PR_SET_DUMPABLE 0), so only root may read them",
                    "run observe as root"
                )
            }
            if yamaPtraceScope == 1 && startedByObserver != true {
                return (
                    " (Yama ptrace_scope is 1: only children can be read)",
                    "start the target with 'poolsize observe -- CMD', or run observe as root"
                )
            }
            return ("", "run observe as root")
        }
    }
}
