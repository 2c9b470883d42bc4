/// Sorts one thread's state and blocking syscall into a `SampleClass` with a label for the
/// "top blocking calls" table (docs/platform.md: classes of off-CPU time). Pure.
package enum SampleClassifier {
    /// The class and label of a reading. `state` is stat's field 3; `descriptor` the kind of
    /// argument 0 when the call waits on a descriptor, `socket` that socket's endpoint;
    /// `waitSet` what a multiplexed wait (epoll_wait, poll, select) watches, when read.
    package static func classify(
        state: Character, syscall: SyscallReading?, descriptor: DescriptorKind?, socket: SocketEndpoint? = nil,
        waitSet: [WaitMember]? = nil, architecture: SyscallArchitecture
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
        let blocked = blockedCall(
            syscall: syscall, descriptor: descriptor, socket: socket, waitSet: waitSet, architecture: architecture)
        // Uninterruptible sleep is disk or another device the thread cannot be woken from:
        // known IO whatever the call (a page fault reads a file too).
        if state == "D" { return (.blockedIO, "D " + blocked.label) }
        return blocked
    }

    static func blockedCall(
        syscall: SyscallReading?, descriptor: DescriptorKind?, socket: SocketEndpoint?, waitSet: [WaitMember]?,
        architecture: SyscallArchitecture
    ) -> (class: SampleClass, label: String) {
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
            return classify(call, arguments: arguments, descriptor: descriptor, socket: socket, waitSet: waitSet)
        }
    }

    static func classify(
        _ call: BlockingSyscall, arguments: [UInt64], descriptor: DescriptorKind?, socket: SocketEndpoint? = nil,
        waitSet: [WaitMember]? = nil
    ) -> (class: SampleClass, label: String) {
        let name = call.rawValue
        let on = descriptor.map { " " + $0.label } ?? ""
        switch call {
        case .read, .readv, .pread64, .preadv, .preadv2, .recvfrom, .recvmsg, .recvmmsg:
            // A read on an eventfd or signalfd waits for a wake-up, not for data; one on a
            // client's connection for its next request or the rest of this one.
            if case .anonymous? = descriptor { return (.ambiguous, name + on) }
            if case .eventPoll? = descriptor { return (.ambiguous, name + on) }
            if case .socket? = descriptor, socket?.inbound == true { return (.ambiguous, name + " client") }
            return (.blockedIO, name + on)
        case .write, .writev, .pwrite64, .pwritev, .pwritev2, .sendto, .sendmsg, .sendmmsg, .sendfile, .splice:
            if case .anonymous? = descriptor { return (.ambiguous, name + on) }
            if case .eventPoll? = descriptor { return (.ambiguous, name + on) }
            return (.blockedIO, name + on)
        case .fsync, .fdatasync, .syncFileRange, .connect, .wait4, .waitid, .ioGetevents, .ioUringEnter, .openat:
            return (.blockedIO, name + on)
        case .poll, .ppoll:
            // No descriptors makes it a sleep.
            if arguments.count > 1 && arguments[1] == 0 { return (.ambiguous, name + " (sleep)") }
            return multiplexed(name, waitSet)
        case .select, .pselect6:
            if arguments.first == 0 { return (.ambiguous, name + " (sleep)") }
            return multiplexed(name, waitSet)
        case .epollWait, .epollPwait, .epollPwait2:
            return multiplexed(name, waitSet)
        case .accept, .accept4, .rtSigtimedwait, .rtSigsuspend, .pause:
            return (.idle, name)
        case .futex, .futexWaitv, .nanosleep, .clockNanosleep, .flock, .msgrcv, .semtimedop, .semop:
            return (.ambiguous, name + on)
        }
    }

    /// A wait on a set of descriptors. A listening socket in it means a thread waiting for
    /// connections: idle (an acceptor, an event loop). Sockets alone, none a client's, mean a
    /// server's answer: IO. Anything else may be a worker waiting for its next task or a task
    /// waiting inside itself (a backend waiting for its client's next query and one inside
    /// pg_sleep both sit in epoll_wait), and so is a set that could not be read: ambiguous.
    static func multiplexed(_ name: String, _ waitSet: [WaitMember]?) -> (class: SampleClass, label: String) {
        guard let waitSet else { return (.ambiguous, name) }
        if waitSet.isEmpty { return (.ambiguous, name + " (sleep)") }
        if waitSet.contains(.listener) { return (.idle, name + " listening") }
        if waitSet.allSatisfy({ $0 == .socket }) { return (.blockedIO, name + " socket") }
        let rank = { (member: WaitMember) -> Int in
            switch member {
            case .listener: 0
            case .client: 1
            case .socket: 2
            case .pipe: 3
            case .wakeup: 4
            case .file: 5
            case .unknown: 6
            }
        }
        let labels = Set(waitSet).sorted { (rank($0), $0.label) < (rank($1), $1.label) }.map(\.label)
        return (.ambiguous, name + " " + labels.joined(separator: "+"))
    }
}
