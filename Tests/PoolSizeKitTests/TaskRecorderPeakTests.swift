@testable import PoolSizeKit
import Testing

/// The peak of task bodies running at once is found from the samples' intervals: a body
/// ending when another starts does not overlap it.
@Suite struct TaskRecorderPeakTests {
    static func sample(_ started: UInt64, _ ended: UInt64) -> TaskSample {
        TaskSample(submitted: started, started: started, ended: ended, cpuNanoseconds: 0, thread: 1, nice: 0)
    }

    @Test func thePeakIsTheMostIntervalsOverlappingAtOneTime() {
        // At 12: [5, 15), [10, 20) and [12, 13) run; at 10, [0, 10) has ended as [10, 20) starts.
        let samples = [Self.sample(0, 10), Self.sample(5, 15), Self.sample(10, 20), Self.sample(12, 13)]
        #expect(TaskRecorder.peak(of: samples) == 3)
        #expect(TaskRecorder.peak(of: samples.reversed()) == 3)
        #expect(TaskRecorder.peak(of: [Self.sample(0, 1), Self.sample(1, 2), Self.sample(2, 3)]) == 1)
    }

    @Test func noTaskIsNoPeakAndTasksOfNoLengthAreOne() {
        #expect(TaskRecorder.peak(of: []) == 0)
        #expect(TaskRecorder.peak(of: [Self.sample(7, 7), Self.sample(7, 7)]) == 1)
    }
}

@Suite struct TaskRecorderStripeTests {
    @Test(arguments: [(1, 16), (16, 16), (17, 32), (64, 64), (65, 128), (10_000, 4096)])
    func buffersCoverTheThreads(threads: Int, buffers: Int) {
        #expect(TaskRecorder.stripeCount(threads: threads) == buffers)
    }
}
