import Foundation
import PoolSizeModel
import PoolSizeProcess
import Testing
@testable import PoolSizeObserve

/// What observe says when it can measure only part of its target (docs/guide/observe.md).
struct ObservationLimitTests {
    @Test func everyLimitHasItsOwnExitCodeAndOneLine() {
        let limits = ObservationLimit.Kind.allCases.map {
            ObservationLimit(kind: $0, pid: 42, afterSeconds: 1.5, ownerUID: 1000, yamaPtraceScope: 1)
        }
        #expect(Set(limits.map(\.exitCode)).count == limits.count)
        #expect(limits.allSatisfy { !$0.message.contains("\n") })
        #expect(
            limits.first { $0.kind == .syscallDenied }?.message.contains(
                "Yama ptrace_scope is 1: only children can be read") == true)
        #expect(
            limits.first { $0.kind == .targetExited }?.message.hasPrefix(
                "pid 42 exited after 1.5 s: the figures cover the observation until then") == true)
        #expect(
            limits.first { $0.kind == .otherUser }?.message.hasPrefix(
                "pid 42 belongs to another user (uid 1000): CPU, run-queue time and thread states are measured") == true
        )
    }

    /// Issue 31: `observe -- CMD` is advised only where it lifts the limit (Yama ptrace_scope 1,
    /// a target observe did not start, not known to be undumpable); it was advised for a target
    /// observe had started itself, and under scopes 2 and 3.
    @Test func theSyscallAdviceIsTheOneThatHelps() {
        func message(scope: Int?, started: Bool?, dumpable: Bool? = nil) -> String {
            ObservationLimit(
                kind: .syscallDenied, pid: 42, yamaPtraceScope: scope, startedByObserver: started, dumpable: dumpable
            ).message
        }
        let measured =
            "CPU, run-queue time and thread states are measured, blocked time is not split into IO, idle and ambiguous"
        #expect(
            message(scope: 1, started: false)
                == "pid 42: blocking syscalls are unreadable (EACCES (Yama ptrace_scope is 1: only children can be "
                + "read)): \(measured); start the target with 'poolsize observe -- CMD', or run observe as root")
        let started = message(scope: 1, started: true)
        #expect(!started.contains("observe -- CMD"))
        #expect(
            started
                == "pid 42: blocking syscalls are unreadable (EACCES: the process is not dumpable (a setuid or setgid "
                + "program, or one that called prctl PR_SET_DUMPABLE 0), so only root may read them): \(measured); "
                + "run observe as root")
        #expect(message(scope: 1, started: false, dumpable: false) == started)
        #expect(
            message(scope: 2, started: false).hasSuffix(
                "(EACCES (Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE may read them)): \(measured); run "
                    + "observe as root"))
        #expect(
            message(scope: 3, started: false).hasSuffix(
                "; nothing lifts this until the machine boots with kernel.yama.ptrace_scope below 3"))
        #expect(message(scope: nil, started: false).hasSuffix("(EACCES): \(measured); run observe as root"))
        #expect(!message(scope: 0, started: false).contains("observe -- CMD"))
    }

    /// Issue 31: a zombie and a kernel thread are refused, each with its own code and line.
    @Test func aZombieAndAKernelThreadAreRefused() {
        let zombie = ObservationLimit(kind: .zombie, pid: 42), kernel = ObservationLimit(kind: .kernelThread, pid: 2)
        #expect(zombie.exitCode == 10 && kernel.exitCode == 11)
        #expect(
            zombie.message
                == "pid 42 has exited (zombie: its parent has not reaped it yet), so there is nothing to observe; give "
                + "the PID of a running process (ps -e), or start the target with 'poolsize observe [options] -- CMD "
                + "ARGS…'")
        #expect(
            kernel.message
                == "pid 2 is a kernel thread: it runs no user-space code, so it has no pool to size; give the PID of "
                + "an application's process (ps -e lists kernel threads in [brackets])")
    }

    /// stat's flags (field 9) say a kernel thread (PF_KTHREAD); this test's process is none.
    @Test func kernelThreadsAreToldByTheirFlags() throws {
        let kthreadd = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 24 0 0\n"
        #expect(ProcText.flags(of: kthreadd) == 2_129_984)
        #expect(try #require(ProcText.flags(of: kthreadd)) & ProcText.kernelThreadFlag != 0)
        let user = "7 (a) b) R 1 7 7 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 24 0 0\n"
        #expect(try #require(ProcText.flags(of: user)) & ProcText.kernelThreadFlag == 0)
        #expect(ProcText.effectiveUID("Name:\tx\nUid:\t1000\t1001\t1000\t1000\n") == 1001)
        #expect(throws: Never.self) { try TargetProbe.check(pid: getpid()) }
    }

    @Test func theErrorPrintsEveryLimitAndExitsWithTheFirst() {
        let error = PoolSizeError.observationLimited([
            ObservationLimit(kind: .targetExited, pid: 7, afterSeconds: 2),
            ObservationLimit(kind: .syscallDenied, pid: 7),
        ])
        #expect(error.exitCode == 6)
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("observe: pid 7") })
    }

    /// Without schedstat, C comes from stat's utime + stime ticks and there is no run-queue time.
    @Test func withoutSchedstatCPUComesFromTicks() throws {
        let raw = RawThreadTexts(
            pid: 1, tid: 2, stat: "2 (w-1) S 1 1 1 0 -1 0 0 0 0 0 15 3 0 0 20 0 1 0 500 0 0\n", schedstat: nil)
        let reading = try #require(ThreadReading(raw, clockTicksPerSecond: 100))
        #expect(reading.cpuNanoseconds == 180_000_000)
        #expect(reading.runQueueNanoseconds == nil)
        #expect(reading.startSeconds == 5)
    }

    /// An unreadable syscall file (EACCES) leaves the blocked time ambiguous, never guessed.
    @Test func unreadableSyscallsAreAmbiguous() throws {
        let raw = RawThreadTexts(
            pid: 1, tid: 2, stat: "2 (w-1) S 1 1 1 0 -1 0 0 0 0 0 15 3 0 0 20 0 1 0 500 0 0\n", schedstat: "1 2 3\n",
            syscallErrno: 13)
        let reading = try #require(ThreadReading(raw, clockTicksPerSecond: 100))
        #expect(reading.syscall == .unreadable(errno: 13))
        #expect(reading.classified(on: .x86_64) == (.ambiguous, "unreadable"))
    }
}
