import Foundation
@testable import PoolSizeKit
import Synchronization
import Testing

/// A task that starts within `TaskRecorder.carryGapNanoseconds` of its thread's last task's end
/// takes its starting CPU reading from that end plus the gap, and reads the clock otherwise.
@Suite struct TaskRecorderCarryTests {
    /// Clocks that hand out scripted wall and CPU readings in order, counting the CPU reads.
    final class ListedClocks: ScriptedClocks, Sendable {
        let walls: Mutex<[UInt64]>
        let cpus: Mutex<[UInt64]>
        init(walls: [UInt64], cpus: [UInt64]) {
            self.walls = Mutex(walls)
            self.cpus = Mutex(cpus)
        }
        func wallNanoseconds() -> UInt64 { walls.withLock { $0.isEmpty ? 0 : $0.removeFirst() } }
        func threadCPUNanoseconds() -> UInt64 { cpus.withLock { $0.isEmpty ? 0 : $0.removeFirst() } }
        func processUsage() -> ProcessUsage {
            ProcessUsage(
                cpuNanoseconds: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0, maxRSSKilobytes: 0)
        }
        func machineBusyNanoseconds() -> UInt64? { nil }
    }

    struct Idle: Workload {
        func run(task index: UInt64) {}
    }

    /// Two tasks on this thread, the second starting `gap` ns after the first ended; the CPU
    /// each recorded, and the CPU readings left unread.
    static func twoTasks(gap: UInt64, carrying: Bool) -> (cpu: [UInt64], unread: Int) {
        // Task 0: starts at 1000 (CPU 5000), ends at 4000 (CPU 8000). Task 1 starts at 4000 + gap.
        let clocks = ListedClocks(
            walls: [1_000, 4_000, 4_000 + gap, 9_000],
            cpus: carrying && gap <= 2_000 ? [5_000, 8_000, 12_500] : [5_000, 8_000, 9_000, 12_500])
        let recorder = TaskRecorder(workload: Idle(), clocks: clocks, threads: 1, chainsCPUReads: carrying)
        recorder.run(task: 0, submitted: 0)
        recorder.run(task: 1, submitted: 0)
        let samples = recorder.samples()
        return (samples.map(\.cpuNanoseconds), clocks.cpus.withLock { $0.count })
    }

    @Test func aTaskRightAfterTheLastCarriesItsEndReadingPlusTheGap() {
        // 12 500 - (8 000 + 1 500): the thread ran through the gap.
        let seen = Self.twoTasks(gap: 1_500, carrying: true)
        #expect(seen.cpu == [3_000, 3_000])
        #expect(seen.unread == 0, "three CPU reads for two tasks")
    }

    @Test func aLongerGapReadsTheClock() {
        let seen = Self.twoTasks(gap: 2_001, carrying: true)
        #expect(seen.cpu == [3_000, 3_500])
        #expect(seen.unread == 0)
    }

    @Test func withoutCarryingEveryTaskReadsTwice() {
        let seen = Self.twoTasks(gap: 10, carrying: false)
        #expect(seen.cpu == [3_000, 3_500])
        #expect(seen.unread == 0)
    }

    @Test func aNewTrialStartsWithAReading() {
        // The second recorder is a new trial: its first task reads, though only 10 ns passed.
        let first = ListedClocks(walls: [1_000, 4_000], cpus: [5_000, 8_000])
        TaskRecorder(workload: Idle(), clocks: first, threads: 1, chainsCPUReads: true).run(task: 0, submitted: 0)
        let second = ListedClocks(walls: [4_010, 6_000], cpus: [8_100, 9_100])
        let recorder = TaskRecorder(workload: Idle(), clocks: second, threads: 1, chainsCPUReads: true)
        recorder.run(task: 0, submitted: 0)
        #expect(recorder.samples().map(\.cpuNanoseconds) == [1_000])
        #expect(second.cpus.withLock { $0.isEmpty })
    }

    @Test func aCarriedReadingPastTheEndRecordsNoCPU() {
        // A clock that went backwards across the gap records 0, never a wrapped-around figure.
        let clocks = ListedClocks(walls: [1_000, 4_000, 5_000, 9_000], cpus: [5_000, 8_000, 8_500])
        let recorder = TaskRecorder(workload: Idle(), clocks: clocks, threads: 1, chainsCPUReads: true)
        recorder.run(task: 0, submitted: 0)
        recorder.run(task: 1, submitted: 0)
        #expect(recorder.samples().map(\.cpuNanoseconds) == [3_000, 0])
    }
}
