/// The system calls a thread blocks in that the observer tells apart, named as in the kernel's
/// tables. Anything else a thread is found blocked in counts as ambiguous under its number.
package enum BlockingSyscall: String, CaseIterable, Sendable, Codable {
    /// read(2) on the descriptor in argument 0.
    case read
    /// readv(2).
    case readv
    /// pread64(2).
    case pread64
    /// preadv(2).
    case preadv
    /// preadv2(2).
    case preadv2
    /// write(2).
    case write
    /// writev(2).
    case writev
    /// pwrite64(2).
    case pwrite64
    /// pwritev(2).
    case pwritev
    /// pwritev2(2).
    case pwritev2
    /// recvfrom(2) (recv is recvfrom on both architectures).
    case recvfrom
    /// recvmsg(2).
    case recvmsg
    /// recvmmsg(2).
    case recvmmsg
    /// sendto(2) (send is sendto).
    case sendto
    /// sendmsg(2).
    case sendmsg
    /// sendmmsg(2).
    case sendmmsg
    /// sendfile(2).
    case sendfile
    /// splice(2).
    case splice
    /// poll(2): argument 1 is the number of descriptors (0 makes it a sleep). x86_64 only.
    case poll
    /// ppoll(2): argument 1 is the number of descriptors.
    case ppoll
    /// select(2): argument 0 is the highest descriptor + 1 (0 makes it a sleep). x86_64 only.
    case select
    /// pselect6(2).
    case pselect6
    /// connect(2): a socket still connecting.
    case connect
    /// accept(2): a thread waiting for a connection, idle in a thread-per-connection server.
    case accept
    /// accept4(2).
    case accept4
    /// epoll_wait(2): an event loop or a worker waiting on a set of descriptors. x86_64 only.
    case epollWait = "epoll_wait"
    /// epoll_pwait(2).
    case epollPwait = "epoll_pwait"
    /// epoll_pwait2(2).
    case epollPwait2 = "epoll_pwait2"
    /// futex(2): an idle worker, a lock wait inside a task and a JVM sleep look the same.
    case futex
    /// futex_waitv(2).
    case futexWaitv = "futex_waitv"
    /// nanosleep(2).
    case nanosleep
    /// clock_nanosleep(2).
    case clockNanosleep = "clock_nanosleep"
    /// wait4(2): waiting for a child process, part of a task that runs a command.
    case wait4
    /// waitid(2).
    case waitid
    /// fsync(2).
    case fsync
    /// fdatasync(2).
    case fdatasync
    /// sync_file_range(2).
    case syncFileRange = "sync_file_range"
    /// io_getevents(2): Linux AIO completions.
    case ioGetevents = "io_getevents"
    /// io_uring_enter(2).
    case ioUringEnter = "io_uring_enter"
    /// openat(2): an open that blocks (a FIFO, a network file system).
    case openat
    /// flock(2): a file lock wait.
    case flock
    /// rt_sigtimedwait(2): a thread that waits for signals.
    case rtSigtimedwait = "rt_sigtimedwait"
    /// rt_sigsuspend(2).
    case rtSigsuspend = "rt_sigsuspend"
    /// pause(2). x86_64 only.
    case pause
    /// msgrcv(2): a System V message queue.
    case msgrcv
    /// semtimedop(2): a System V semaphore.
    case semtimedop
    /// semop(2). x86_64 only as its own number.
    case semop

    /// This call's number on `architecture`, nil where the architecture lacks it (aarch64 has no
    /// poll, select, epoll_wait or pause; their libc wrappers use ppoll, pselect6, epoll_pwait).
    /// From the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl,
    /// include/uapi/asm-generic/unistd.h).
    package func number(on architecture: SyscallArchitecture) -> Int? {
        let pair: (x86: Int?, arm: Int?)
        switch self {
        case .read: pair = (0, 63)
        case .readv: pair = (19, 65)
        case .pread64: pair = (17, 67)
        case .preadv: pair = (295, 69)
        case .preadv2: pair = (327, 286)
        case .write: pair = (1, 64)
        case .writev: pair = (20, 66)
        case .pwrite64: pair = (18, 68)
        case .pwritev: pair = (296, 70)
        case .pwritev2: pair = (328, 287)
        case .recvfrom: pair = (45, 207)
        case .recvmsg: pair = (47, 212)
        case .recvmmsg: pair = (299, 243)
        case .sendto: pair = (44, 206)
        case .sendmsg: pair = (46, 211)
        case .sendmmsg: pair = (307, 269)
        case .sendfile: pair = (40, 71)
        case .splice: pair = (275, 76)
        case .poll: pair = (7, nil)
        case .ppoll: pair = (271, 73)
        case .select: pair = (23, nil)
        case .pselect6: pair = (270, 72)
        case .connect: pair = (42, 203)
        case .accept: pair = (43, 202)
        case .accept4: pair = (288, 242)
        case .epollWait: pair = (232, nil)
        case .epollPwait: pair = (281, 22)
        case .epollPwait2: pair = (441, 441)
        case .futex: pair = (202, 98)
        case .futexWaitv: pair = (449, 449)
        case .nanosleep: pair = (35, 101)
        case .clockNanosleep: pair = (230, 115)
        case .wait4: pair = (61, 260)
        case .waitid: pair = (247, 95)
        case .fsync: pair = (74, 82)
        case .fdatasync: pair = (75, 83)
        case .syncFileRange: pair = (277, 84)
        case .ioGetevents: pair = (208, 4)
        case .ioUringEnter: pair = (426, 426)
        case .openat: pair = (257, 56)
        case .flock: pair = (73, 32)
        case .rtSigtimedwait: pair = (128, 137)
        case .rtSigsuspend: pair = (130, 133)
        case .pause: pair = (34, nil)
        case .msgrcv: pair = (70, 188)
        case .semtimedop: pair = (220, 192)
        case .semop: pair = (65, 193)
        }
        switch architecture {
        case .x86_64: return pair.x86
        case .aarch64: return pair.arm
        }
    }

    /// The call with `number` on `architecture`, nil for a call not in this list.
    package init?(number: Int, architecture: SyscallArchitecture) {
        guard let match = Self.table(architecture)[number] else { return nil }
        self = match
    }

    private static let x86Table = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { call in call.number(on: .x86_64).map { ($0, call) } })
    private static let armTable = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { call in call.number(on: .aarch64).map { ($0, call) } })
    private static func table(_ architecture: SyscallArchitecture) -> [Int: BlockingSyscall] {
        architecture == .x86_64 ? x86Table : armTable
    }

    /// Whether the call waits on a set of descriptors (epoll's instance, poll's array, select's
    /// bitmaps), which says what the wait is for (`WaitMember`).
    package var isMultiplexed: Bool {
        switch self {
        case .poll, .ppoll, .select, .pselect6, .epollWait, .epollPwait, .epollPwait2: return true
        default: return false
        }
    }

    /// Whether argument 0 is the descriptor the call waits on, so the descriptor's kind
    /// (socket, pipe, file, epoll) is part of the classification.
    package var waitsOnDescriptorArgument: Bool {
        switch self {
        case .read, .readv, .pread64, .preadv, .preadv2, .write, .writev, .pwrite64, .pwritev, .pwritev2,
            .recvfrom, .recvmsg, .recvmmsg, .sendto, .sendmsg, .sendmmsg, .sendfile, .splice,
            .connect, .accept, .accept4, .epollWait, .epollPwait, .epollPwait2, .fsync, .fdatasync, .syncFileRange,
            .flock:
            return true
        default:
            return false
        }
    }
}
