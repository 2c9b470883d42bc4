import PoolSizeProcess
import Testing
@testable import PoolSizeObserve

/// The /proc parsers, on texts copied from a kernel 6.18 machine and on hostile names.
struct ProcTextTests {
    /// /proc/net/tcp as this machine printed it, with a connection on the port (state 01) and a
    /// listener on another port beside the two listeners on 8080 (0x1F90), one IPv6-style.
    @Test func listeningInodesAreTheListenRowsOnThePort() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 20467623 1 0000000000000000 100 0 0 10 0
               1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1060 1 0000000000000000 100 0 0 10 0
               2: 0100007F:1F90 0100007F:D2A4 01 00000000:00000000 00:00000000 00000000     0        0 20470001 1 0000000000000000 20 4 30 10 -1
               3: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 31 1 0000000000000000 100 0 0 10 0

            """
        #expect(ProcText.listeningInodes(table, port: 8080) == [20_467_623, 31])
        #expect(ProcText.listeningInodes(table, port: 2024) == [1060])
        #expect(ProcText.listeningInodes(table, port: 54_436).isEmpty, "a connection's port is not a listener")
        #expect(ProcText.listeningInodes("", port: 8080).isEmpty)
    }

    /// SigCgt is a hexadecimal mask, signal n at bit n − 1: a gunicorn arbiter's, as read on
    /// this machine, catches SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGTERM, SIGCHLD, SIGTTIN,
    /// SIGTTOU and SIGWINCH; a process catching none has a mask of 0.
    @Test func caughtSignalsAreTheSigCgtMask() {
        let arbiter =
            "Name:\tgunicorn\nSigBlk:\t0000000000000000\nSigIgn:\t0000000001001000\nSigCgt:\t0000000008314a07\n"
        let mask = ProcText.caughtSignals(arbiter)
        #expect(mask == 0x0831_4a07)
        for signal in [1, 2, 3, 10, 12, 15, 17, 21, 22, 28] {
            #expect(mask.map { $0 & (1 << (signal - 1)) != 0 } == true)
        }
        #expect(mask.map { $0 & (1 << (9 - 1)) != 0 } == false)
        #expect(ProcText.caughtSignals("Name:\tserve\nSigCgt:\t0000000000000000\n") == 0)
        #expect(ProcText.caughtSignals("Name:\tserve\n") == nil)
    }

    @Test func schedstatGivesCPURunQueueAndSlices() {
        let parsed = ProcText.schedstat("155727196 46492962 129\n")
        #expect(parsed?.cpuNanoseconds == 155_727_196)
        #expect(parsed?.runQueueNanoseconds == 46_492_962)
        #expect(parsed?.timeslices == 129)
        #expect(ProcText.schedstat("") == nil, "a thread that exited mid-read leaves an empty file")
    }

    @Test func statFieldsCountFromTheLastParenthesis() throws {
        let line =
            "21696 (worker-1) S 21690 21690 21690 0 -1 4194368 12 0 0 0 15 3 0 0 20 0 7 0 924212 5124096 950 18446744073709551615\n"
        let stat = try #require(ProcText.stat(line))
        #expect(stat.comm == "worker-1")
        #expect(stat.state == "S")
        #expect(stat.parent == 21690 && stat.session == 21690)
        #expect(stat.cpuTicks == 18)
        #expect(stat.startTicks == 924_212)
        // A JVM name with a space, and a name built to shift a naive split.
        let hostile = try #require(ProcText.stat("7 (a) R (b) D 1 1 1 0 -1 0 0 0 0 0 4 5 0 0 20 0 1 0 777 0 0\n"))
        #expect(hostile.comm == "a) R (b")
        #expect(hostile.state == "D")
        #expect(hostile.cpuTicks == 9)
        #expect(hostile.startTicks == 777)
        #expect(ProcText.stat("12 (short) S 1 2") == nil)
    }

    @Test func statGivesTheMachinesBusyTicks() {
        let stat = "cpu  100 2 30 5000 40 6 7 8 0 0\ncpu0 50 1 15 2500 20 3 3 4 0 0\nintr 1\n"
        #expect(ProcText.machineBusyTicks(stat) == 100 + 2 + 30 + 6 + 7 + 8)
        #expect(ProcText.machineBusyTicks("cpu0 1 2 3\n") == nil)
    }

    @Test func statmGivesTheResidentPages() {
        #expect(ProcText.residentPages("5124 950 420 1 0 300 0\n") == 950)
        #expect(ProcText.residentPages("5124") == nil)
        #expect(ProcText.residentPages("") == nil)
    }

    @Test func statusGivesSwitchesAndTheRealUser() {
        let status =
            "Name:\tworker-1\nUid:\t1000\t1000\t1000\t1000\nvoluntary_ctxt_switches:\t115\nnonvoluntary_ctxt_switches:\t24\n"
        #expect(ProcText.switches(status)?.voluntary == 115)
        #expect(ProcText.switches(status)?.involuntary == 24)
        #expect(ProcText.realUID(status) == 1000)
        #expect(ProcText.switches("Name:\tx\n") == nil)
    }

    @Test func syscallFileShapes() {
        #expect(SyscallReading(text: "running\n") == .running)
        #expect(SyscallReading(text: "-1 0x7ffe2069b0 0x7f5b7b8a6aec\n") == .notInSyscall)
        #expect(
            SyscallReading(text: "232 0x10 0x7f0ba081be84 0x1 0xffffffff 0x0 0x0 0x7f0ba081be58 0x7f0ba0a1c5c6\n")
                == .inSyscall(number: 232, arguments: [0x10, 0x7f0b_a081_be84, 1, 0xffff_ffff, 0, 0]))
        #expect(SyscallReading(text: "") == nil)
        #expect(SyscallReading(text: "0 0x5") == nil, "six arguments or nothing")
    }

    @Test func descriptorLinks() {
        #expect(DescriptorKind(link: "socket:[262482]") == .socket(inode: 262_482))
        #expect(DescriptorKind(link: "pipe:[262483]") == .pipe(inode: 262_483))
        #expect(DescriptorKind(link: "anon_inode:[eventpoll]") == .eventPoll)
        #expect(DescriptorKind(link: "anon_inode:[eventfd]") == .anonymous(name: "eventfd"))
        #expect(DescriptorKind(link: "/dev/pts/0") == .device(path: "/dev/pts/0"))
        #expect(DescriptorKind(link: "/var/lib/data.db") == .file(path: "/var/lib/data.db"))
        #expect(DescriptorKind(link: "") == nil)
    }

    /// An epoll instance's watched descriptors, as a PostgreSQL backend's fdinfo lists them.
    @Test func epollTargetsFromFdinfo() {
        let fdinfo = """
            pos:	0
            flags:	02000002
            mnt_id:	15
            ino:	1057
            tfd:        3 events:       19 data:     55f90e56b7b8  pos:0 ino:10dd7 sdev:f
            tfd:        8 events:       19 data:     55f90e56b7a0  pos:0 ino:11 sdev:10
            tfd:        7 events:       19 data:     55f90e56b788  pos:0 ino:113c7 sdev:9

            """
        #expect(ProcText.epollTargets(fdinfo) == [3, 8, 7])
        #expect(ProcText.epollTargets("pos:\t0\nflags:\t02\n").isEmpty)
    }

    /// The shared objects a maps text names, each once, in order; anonymous and special
    /// regions skipped.
    @Test func sharedObjectsFromMaps() {
        let maps = """
            55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1311 /usr/bin/python3.11
            7f0a10000000-7f0a10021000 rw-p 00000000 00:00 0
            7f0a12000000-7f0a12100000 r--p 00000000 08:01 2222 /opt/py/lib/libpython3.11.so.1.0
            7f0a12100000-7f0a12300000 r-xp 00100000 08:01 2222 /opt/py/lib/libpython3.11.so.1.0
            7f0a13000000-7f0a13001000 r--p 00000000 08:01 3333 /usr/lib/x86_64-linux-gnu/libc.so.6
            7ffd10000000-7ffd10021000 rw-p 00000000 00:00 0                          [stack]
            """
        #expect(
            ProcText.sharedObjects(maps) == [
                "/opt/py/lib/libpython3.11.so.1.0", "/usr/lib/x86_64-linux-gnu/libc.so.6",
            ])
    }
}
