import Testing
@testable import PoolSizeObserve

/// Syscall numbers and the classes of blocked samples (docs/platform.md, classes of off-CPU time).
struct ClassificationTests {
    @Test func numbersMatchTheKernelTables() {
        // Spot checks against arch/x86/entry/syscalls/syscall_64.tbl and asm-generic/unistd.h.
        #expect(BlockingSyscall.read.number(on: .x86_64) == 0)
        #expect(BlockingSyscall.read.number(on: .aarch64) == 63)
        #expect(BlockingSyscall.futex.number(on: .x86_64) == 202)
        #expect(BlockingSyscall.futex.number(on: .aarch64) == 98)
        #expect(BlockingSyscall.epollWait.number(on: .x86_64) == 232)
        #expect(BlockingSyscall.epollWait.number(on: .aarch64) == nil, "aarch64 only has epoll_pwait")
        #expect(BlockingSyscall.epollPwait.number(on: .aarch64) == 22)
        #expect(BlockingSyscall.poll.number(on: .aarch64) == nil)
        #expect(BlockingSyscall(number: 45, architecture: .x86_64) == .recvfrom)
        #expect(BlockingSyscall(number: 207, architecture: .aarch64) == .recvfrom)
        #expect(BlockingSyscall(number: 9999, architecture: .x86_64) == nil)
    }

    @Test func everyCallHasOneNumberPerArchitecture() {
        for architecture in SyscallArchitecture.allCases {
            let numbers = BlockingSyscall.allCases.compactMap { $0.number(on: architecture) }
            #expect(Set(numbers).count == numbers.count, "\(architecture): two calls share a number")
            for call in BlockingSyscall.allCases {
                if let number = call.number(on: architecture) {
                    #expect(BlockingSyscall(number: number, architecture: architecture) == call)
                }
            }
        }
    }

    static func classify(
        _ state: Character, _ syscall: String?, _ link: String? = nil, on architecture: SyscallArchitecture = .x86_64
    ) -> (SampleClass, String) {
        let result = SampleClassifier.classify(
            state: state, syscall: syscall.flatMap { SyscallReading(text: $0) },
            descriptor: link.flatMap(DescriptorKind.init(link:)), architecture: architecture)
        return (result.class, result.label)
    }

    static let args = " 0x5 0x7ffd0000 0x1 0x0 0x0 0x0 0x7ffd1000 0x7f001000"

    @Test func knownIO() {
        #expect(Self.classify("S", "0" + Self.args, "pipe:[12]") == (.blockedIO, "read pipe"))
        #expect(Self.classify("S", "45" + Self.args, "socket:[99]") == (.blockedIO, "recvfrom socket"))
        #expect(Self.classify("S", "207" + Self.args, "socket:[99]", on: .aarch64) == (.blockedIO, "recvfrom socket"))
        #expect(Self.classify("S", "42" + Self.args, "socket:[99]") == (.blockedIO, "connect socket"))
        #expect(Self.classify("S", "61" + Self.args) == (.blockedIO, "wait4"))
        #expect(Self.classify("S", "7 0x7ffd0000 0x2 0x3e8 0x0 0x0 0x0 0x1 0x2") == (.blockedIO, "poll"))
        #expect(Self.classify("D", "0" + Self.args, "/data/file") == (.blockedIO, "D read file"))
        #expect(
            Self.classify("D", "-1 0x7ffd0000 0x7f001000") == (.blockedIO, "D outside a syscall"),
            "a page fault reading a file")
    }

    @Test func idleWaitsForWork() {
        #expect(Self.classify("S", "232" + Self.args, "anon_inode:[eventpoll]") == (.idle, "epoll_wait"))
        #expect(Self.classify("S", "22" + Self.args, "anon_inode:[eventpoll]", on: .aarch64) == (.idle, "epoll_pwait"))
        #expect(Self.classify("S", "43" + Self.args, "socket:[1]") == (.idle, "accept"))
        #expect(Self.classify("S", "288" + Self.args, "socket:[1]") == (.idle, "accept4"))
    }

    @Test func ambiguousWaits() {
        #expect(Self.classify("S", "202" + Self.args) == (.ambiguous, "futex"))
        #expect(Self.classify("S", "230" + Self.args) == (.ambiguous, "clock_nanosleep"))
        #expect(
            Self.classify("S", "7 0x0 0x0 0x3e8 0x0 0x0 0x0 0x1 0x2") == (.ambiguous, "poll (sleep)"),
            "poll with no descriptors is a sleep")
        #expect(
            Self.classify("S", "0" + Self.args, "anon_inode:[eventfd]") == (.ambiguous, "read eventfd"),
            "a wake-up, not data")
        #expect(Self.classify("S", "9999" + Self.args) == (.ambiguous, "syscall 9999"))
        #expect(Self.classify("S", nil) == (.ambiguous, "not read"))
        #expect(
            SampleClassifier.classify(
                state: "S", syscall: .unreadable(errno: 13), descriptor: nil, architecture: .x86_64) == (
                    .ambiguous, "unreadable"
                ))
    }

    @Test func runningIsTheStateNotTheCall() {
        #expect(Self.classify("R", "202" + Self.args) == (.running, "running"), "state R wins over a stale syscall")
        #expect(Self.classify("S", "running") == (.ambiguous, "waking"))
    }
}
