/// Sorts one thread's state and blocking syscall into a `SampleClass` with a label for the
/// "top blocking calls" table (docs/platform.md: classes of off-CPU time). Pure.
package enum SampleClassifier {
    /// The class and label of a reading. `state` is stat's field 3; `descriptor` the kind of
    /// argument 0 when the call waits on a descriptor.
    package static func classify(
        state: Character, syscall: SyscallReading?, descriptor: DescriptorKind?, architecture: SyscallArchitecture
    ) -> (class: SampleClass, label: String) {
        switch state {
        case "R":
            return (.running, "running")
        case "I":
            return (.idle, "kernel idle")
        case "T", "t":
            return (.ambiguous, "stopped")
        default:
            break
        }
        let blocked = blockedCall(syscall: syscall, descriptor: descriptor, architecture: architecture)
        // Uninterruptible sleep is disk or another device the thread cannot be woken from:
        // known IO whatever the call (a page fault reads a file too).
        if state == "D" { return (.blockedIO, "D " + blocked.label) }
        return blocked
    }

    static func blockedCall(syscall: SyscallReading?, descriptor: DescriptorKind?, architecture: SyscallArchitecture)
        -> (class: SampleClass, label: String)
    {
        switch syscall {
        case nil:
            return (.ambiguous, "not read")
        case .unreadable?:
            return (.ambiguous, "unreadable")
        case .running?:
            // stat said blocked, syscall a moment later said running: it woke in between.
            return (.ambiguous, "waking")
        case .notInSyscall?:
            return (.ambiguous, "outside a syscall")
        case let .inSyscall(number, arguments)?:
            guard let call = BlockingSyscall(number: number, architecture: architecture) else {
                return (.ambiguous, "syscall \(number)")
            }
            return classify(call, arguments: arguments, descriptor: descriptor)
        }
    }

    static func classify(_ call: BlockingSyscall, arguments: [UInt64], descriptor: DescriptorKind?) -> (
        class: SampleClass, label: String
    ) {
        let name = call.rawValue
        let on = descriptor.map { " " + $0.label } ?? ""
        switch call {
        case .read, .readv, .pread64, .preadv, .preadv2, .write, .writev, .pwrite64, .pwritev, .pwritev2,
            .recvfrom, .recvmsg, .recvmmsg, .sendto, .sendmsg, .sendmmsg, .sendfile, .splice:
            // A read on an eventfd or signalfd waits for a wake-up, not for data.
            if case .anonymous? = descriptor { return (.ambiguous, name + on) }
            if case .eventPoll? = descriptor { return (.ambiguous, name + on) }
            return (.blockedIO, name + on)
        case .fsync, .fdatasync, .syncFileRange, .connect, .wait4, .waitid, .ioGetevents, .ioUringEnter, .openat:
            return (.blockedIO, name + on)
        case .poll, .ppoll:
            // No descriptors makes it a sleep.
            return arguments.count > 1 && arguments[1] == 0 ? (.ambiguous, name + " (sleep)") : (.blockedIO, name)
        case .select, .pselect6:
            return arguments.first == 0 ? (.ambiguous, name + " (sleep)") : (.blockedIO, name)
        case .accept, .accept4, .epollWait, .epollPwait, .epollPwait2, .rtSigtimedwait, .rtSigsuspend, .pause:
            return (.idle, name)
        case .futex, .futexWaitv, .nanosleep, .clockNanosleep, .flock, .msgrcv, .semtimedop, .semop:
            return (.ambiguous, name + on)
        }
    }
}
