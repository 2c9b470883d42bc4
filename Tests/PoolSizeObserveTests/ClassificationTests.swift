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
        _ state: Character, _ syscall: String?, _ link: String? = nil, socket: SocketEndpoint? = nil,
        set: [WaitMember]? = nil, on architecture: SyscallArchitecture = .x86_64
    ) -> (SampleClass, String) {
        let result = SampleClassifier.classify(
            state: state, syscall: syscall.flatMap { SyscallReading(text: $0) },
            descriptor: link.flatMap(DescriptorKind.init(link:)), socket: socket, waitSet: set,
            architecture: architecture)
        return (result.class, result.label)
    }

    static let args = " 0x5 0x7ffd0000 0x1 0x0 0x0 0x0 0x7ffd1000 0x7f001000"

    @Test func knownIO() {
        #expect(Self.classify("S", "0" + Self.args, "pipe:[12]") == (.blockedIO, "read pipe"))
        #expect(Self.classify("S", "45" + Self.args, "socket:[99]") == (.blockedIO, "recvfrom socket"))
        #expect(Self.classify("S", "207" + Self.args, "socket:[99]", on: .aarch64) == (.blockedIO, "recvfrom socket"))
        #expect(Self.classify("S", "42" + Self.args, "socket:[99]") == (.blockedIO, "connect socket"))
        #expect(Self.classify("S", "61" + Self.args) == (.blockedIO, "wait4"))
        #expect(
            Self.classify("S", "7 0x7ffd0000 0x2 0x3e8 0x0 0x0 0x0 0x1 0x2", set: [.socket]) == (
                .blockedIO, "poll socket"
            ),
            "a blocking client's poll on its connection to a server (libcurl, libpq)")
        #expect(
            Self.classify("S", "45" + Self.args, "socket:[99]", socket: Self.upstream) == (
                .blockedIO, "recvfrom socket"
            ))
        #expect(Self.classify("D", "0" + Self.args, "/data/file") == (.blockedIO, "D read file"))
        #expect(
            Self.classify("D", "-1 0x7ffd0000 0x7f001000") == (.blockedIO, "D outside a syscall"),
            "a page fault reading a file")
    }

    @Test func idleWaitsForWork() {
        let epoll = "anon_inode:[eventpoll]"
        #expect(
            Self.classify("S", "232" + Self.args, epoll, set: [.listener, .client]) == (.idle, "epoll_wait listening"),
            "an event loop whose set holds a listening socket")
        #expect(
            Self.classify("S", "22" + Self.args, epoll, set: [.wakeup("eventfd"), .listener], on: .aarch64) == (
                .idle, "epoll_pwait listening"
            ))
        #expect(
            Self.classify("S", "270 0x7 0x7fff0000 0x0 0x0 0x7fff1000 0x0 0x7fff2000 0x7f00", set: [.listener]) == (
                .idle, "pselect6 listening"
            ), "PostgreSQL's postmaster waiting for connections")
        #expect(Self.classify("S", "43" + Self.args, "socket:[1]") == (.idle, "accept"))
        #expect(Self.classify("S", "288" + Self.args, "socket:[1]") == (.idle, "accept4"))
    }

    static let upstream = SocketEndpoint(
        table: "tcp", local: "127.0.0.1:40000", remote: "127.0.0.1:5432", state: "ESTABLISHED", inbound: false)
    static let client = SocketEndpoint(
        table: "tcp", local: "127.0.0.1:5432", remote: "127.0.0.1:40000", state: "ESTABLISHED", inbound: true)

    /// Issue 31: a PostgreSQL backend waits in epoll_wait both for its client's next query (a
    /// set of the client's socket, the postmaster-death pipe and the latch's signalfd) and inside
    /// pg_sleep (the pipe and the signalfd alone). Neither is idle nor IO from outside.
    @Test func multiplexedWaitsWithoutAListenerAreAmbiguous() {
        let epoll = "anon_inode:[eventpoll]"
        #expect(
            Self.classify("S", "232" + Self.args, epoll, set: [.client, .pipe, .wakeup("signalfd")]) == (
                .ambiguous, "epoll_wait client+pipe+signalfd"
            ))
        #expect(
            Self.classify("S", "232" + Self.args, epoll, set: [.wakeup("signalfd"), .pipe]) == (
                .ambiguous, "epoll_wait pipe+signalfd"
            ))
        #expect(
            Self.classify("S", "232" + Self.args, epoll, set: [.pipe]) == (.ambiguous, "epoll_wait pipe"),
            "a worker on its task pipe, or a task on a child's output")
        #expect(Self.classify("S", "232" + Self.args, epoll) == (.ambiguous, "epoll_wait"), "a set not read")
        #expect(Self.classify("S", "232" + Self.args, epoll, set: []) == (.ambiguous, "epoll_wait (sleep)"))
        #expect(
            Self.classify("S", "7 0x7ffd0000 0x2 0x3e8 0x0 0x0 0x0 0x1 0x2", set: [.socket, .pipe]) == (
                .ambiguous, "poll socket+pipe"
            ), "a wake-up pipe beside the socket: an event loop's client, or a worker's queue")
        #expect(
            Self.classify("S", "7 0x7ffd0000 0x1 0x3e8 0x0 0x0 0x0 0x1 0x2", set: [.client]) == (
                .ambiguous, "poll client"
            ))
        #expect(
            Self.classify("S", "23 0x9 0x7ffd0000 0x0 0x0 0x0 0x0 0x1 0x2", set: [.unknown, .socket]) == (
                .ambiguous, "select socket+unread"
            ), "sockets beyond those read could be anything")
    }

    /// A read on a client's connection waits for its next request, or the rest of this one.
    @Test func aReadOnAClientsConnectionIsAmbiguous() {
        #expect(
            Self.classify("S", "45" + Self.args, "socket:[99]", socket: Self.client) == (.ambiguous, "recvfrom client"))
        #expect(
            Self.classify("S", "44" + Self.args, "socket:[99]", socket: Self.client) == (.blockedIO, "sendto socket"),
            "a send to a slow client is part of the task")
    }

    /// What a set's descriptors are, from their links and sockets.
    @Test func waitMembersFromTheirLinks() {
        let listen = SocketEndpoint(table: "unix", local: "/tmp/.s.PGSQL.5432", remote: nil, state: "LISTEN")
        #expect(WaitMember(RawDescriptor(link: "socket:[1]", socket: listen)) == .listener)
        #expect(WaitMember(RawDescriptor(link: "socket:[1]", socket: Self.client)) == .client)
        #expect(WaitMember(RawDescriptor(link: "socket:[1]", socket: Self.upstream)) == .socket)
        #expect(WaitMember(RawDescriptor(link: "socket:[1]")) == .socket, "a socket not in the tables")
        #expect(WaitMember(RawDescriptor(link: "pipe:[7]")) == .pipe)
        #expect(WaitMember(RawDescriptor(link: "anon_inode:[signalfd]")) == .wakeup("signalfd"))
        #expect(WaitMember(RawDescriptor(link: "anon_inode:[eventpoll]")) == .wakeup("epoll"))
        #expect(WaitMember(RawDescriptor(link: "/var/lib/data")) == .file)
        #expect(WaitMember(RawDescriptor(link: "")) == .unknown)
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
