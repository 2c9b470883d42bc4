import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

@Suite struct WorkloadTests {
    /// The burner stops on the thread CPU clock, so the CPU time it uses is the request (plus at
    /// most one top-up round), however fast the machine is or however often it is preempted.
    /// Each burn is checked from below exactly; from above, the best of five must be within 10%
    /// (on a shared virtual machine a single burn can be charged for time the host stole).
    @Test func burnerUsesTheRequestedCPUTime() {
        let burner = CPUBurner()
        let clocks = SystemClocks()
        for target in [500.0, 2_000.0] {
            var best = Double.infinity
            for _ in 0..<5 {
                let before = clocks.threadCPUNanoseconds()
                burner.burn(microseconds: target)
                let used = Double(clocks.threadCPUNanoseconds() - before) / 1_000
                #expect(used >= target - 1)
                best = min(best, used)
            }
            #expect(best < target * 1.10)
        }
    }

    @Test func noJitterIsExact() {
        let times = TaskTimes(spec: BuiltinWorkloads.io, seed: 1)
        for index: UInt64 in [0, 1, 999] {
            let t = times.times(forTask: index)
            #expect(t.cpuMicroseconds == 1000)
            #expect(t.waitMicroseconds == 15000)
        }
    }

    /// A waiter that records what it was asked to wait, and does not.
    final class RecordingWaiter: Waiter, Sendable {
        let waits = Mutex<[Double]>([])
        func wait(microseconds: Double) { waits.withLock { $0.append(microseconds) } }
    }

    /// With `phases`, a task takes the times of the phase its trial is in (counted from when the
    /// workload was made): one phase from 0 ms applies at once, one from 600 s not yet.
    @Test func phasesSetTheTimesFromTheTrialsStart() {
        var spec = BuiltinWorkloads.io
        spec.cpuMicroseconds = 20
        spec.phases = [WorkloadPhase(startMilliseconds: 0, cpuMicroseconds: 20, waitMicroseconds: 3_000)]
        let now = RecordingWaiter()
        SyntheticWorkload(times: TaskTimes(spec: spec, seed: 1), burner: CPUBurner(), waiter: now).run(task: 0)
        spec.phases = [WorkloadPhase(startMilliseconds: 600_000, cpuMicroseconds: 20, waitMicroseconds: 9)]
        let later = RecordingWaiter()
        SyntheticWorkload(times: TaskTimes(spec: spec, seed: 1), burner: CPUBurner(), waiter: later).run(task: 0)
        #expect(now.waits.withLock { $0 } == [3_000])
        #expect(later.waits.withLock { $0 } == [15_000])
    }

    @Test func uniformJitterStaysInItsBandAndIsSeeded() {
        var spec = BuiltinWorkloads.mixed
        spec.jitter = .uniform
        spec.jitterSpread = 0.25
        let a = TaskTimes(spec: spec, seed: 7), b = TaskTimes(spec: spec, seed: 7), c = TaskTimes(spec: spec, seed: 8)
        var sum = 0.0
        for index: UInt64 in 0..<10_000 {
            let t = a.times(forTask: index)
            #expect(t.cpuMicroseconds >= 3000 && t.cpuMicroseconds <= 5000)
            #expect(t.waitMicroseconds >= 6000 && t.waitMicroseconds <= 10000)
            #expect(t == b.times(forTask: index))
            sum += t.cpuMicroseconds
        }
        #expect(abs(sum / 10_000 - 4000) < 40)
        #expect(a.times(forTask: 3) != c.times(forTask: 3))
    }

    @Test func exponentialJitterHasTheSpecMean() {
        var spec = BuiltinWorkloads.io
        spec.jitter = .exponential
        let times = TaskTimes(spec: spec, seed: 3)
        let draws = (0..<20_000).map { times.times(forTask: UInt64($0)).waitMicroseconds }
        let mean = draws.reduce(0, +) / Double(draws.count)
        // Standard error of the mean is 15000 / √20000 ≈ 106 µs; the 20× cap removes ~e^-20 of mass.
        #expect(abs(mean - 15_000) < 450)
        #expect(draws.max()! <= 300_000)
    }

    @Test func workloadLoaderResolvesNamesAndFiles() throws {
        #expect(try WorkloadLoader.load("io") == BuiltinWorkloads.io)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-loader-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("w.yaml")
        try "name: w\ncpu_us: 10\nwait_us: 20\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try WorkloadLoader.load(file.path).waitMicroseconds == 20)
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: dir.path + "/missing.yaml", hint: "`workload` takes a spec file or one of cpu, io, mixed, file-io"
            )
        ) {
            try WorkloadLoader.load(dir.path + "/missing.yaml")
        }
        #expect(
            throws: PoolSizeError.invalidParameter(
                .workload,
                message:
                    "unknown workload 'disk'; use one of cpu, io, mixed, file-io, or a path to a spec file (see workloads/README.md)"
            )
        ) {
            try WorkloadLoader.load("disk")
        }
    }
}

@Suite struct TraceWorkloadTests {
    /// Rows are drawn by a seeded function of the task index: the same task replays the same row
    /// on any thread, and every row is drawn about as often as the others.
    @Test func rowsAreSeededAndUniform() {
        let trace = Trace(path: "t.csv", cpuMicroseconds: [1, 2, 3, 4], waitMicroseconds: [0, 0, 0, 0])
        let workload = TraceWorkload(trace: trace, seed: 42, burner: CPUBurner(iterationsPerMicrosecond: 1))
        let rows = (0..<4000).map { workload.row(forTask: UInt64($0)) }
        #expect(
            rows
                == (0..<4000).map {
                    TraceWorkload(trace: trace, seed: 42, burner: CPUBurner(iterationsPerMicrosecond: 1)).row(
                        forTask: UInt64($0))
                })
        let counts = Dictionary(grouping: rows, by: { $0 }).mapValues(\.count)
        #expect(counts.keys.sorted() == [0, 1, 2, 3])
        #expect(counts.values.allSatisfy { $0 > 850 && $0 < 1150 }, "\(counts)")
        #expect(
            TraceSource(trace: trace, burner: CPUBurner(iterationsPerMicrosecond: 1)).declaredTaskNanoseconds == 2_500)
    }
}

@Suite struct FileScratchTests {
    /// Real writes and reads succeed, and the scratch files are gone afterwards (with the
    /// directory, when poolsize made it).
    @Test func ioHappensAndLeavesNothing() throws {
        let scratch = try FileScratch(directory: nil, readFileMegabytes: 1)
        let dir = scratch.directory
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("poolsize-read.bin").path))
        let size =
            try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("poolsize-read.bin").path)[
                .size] as? Int
        #expect(size == 1024 * 1024)
        for task in 0..<8 as Range<UInt64> {
            #expect(scratch.io(task: task, writeBytes: 4096, readBytes: 16384, seed: 1) == nil)
        }
        let written =
            try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("poolsize-write.bin").path)[
                .size] as? Int
        #expect(written == 8 * 4096, "eight slots of 4 KiB")
        scratch.remove()
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func anUnwritableScratchIsAFlagError() {
        #expect(throws: PoolSizeError.self) {
            try FileScratch(directory: URL(fileURLWithPath: "/proc/poolsize-scratch"), readFileMegabytes: 1)
        }
    }

    @Test func fileIOSpecsRoundTripAndAreMeasuredNotDeclared() throws {
        let spec = BuiltinWorkloads.fileIO
        #expect(try WorkloadSpec.parse(yaml: spec.yaml, file: "f.yaml") == spec)
        #expect(spec.doesFileIO)
        #expect(
            SyntheticSource(spec: spec, burner: CPUBurner(iterationsPerMicrosecond: 1)).declaredTaskNanoseconds == nil)
    }
}
