import PoolSizeModel
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
