import PoolSizeModel
import Testing

@Suite struct CalibrationModelTests {
    @Test func medianAndRatioAgainstApple() {
        let m = CalibrationMeasurement(.threadCreateToStart, rounds: [30_000, 27_000, 45_000], method: "m")
        #expect(m.median == 30_000)
        #expect(m.reference == 90_000)
        #expect(m.ratio == 30_000.0 / 90_000.0)
        #expect(m.earlierReference == nil)
        #expect(m.summary?.minimum == 27_000)
        #expect(m.summary?.confidenceInterval95 != nil)
    }

    @Test func referenceTable() {
        #expect(CalibrationOperation.lock(.mutex).appleReference == 200)
        #expect(CalibrationOperation.lock(.mutex).earlierReference == 25)
        #expect(CalibrationOperation.compareAndSwap.appleReference == 50)
        #expect(CalibrationOperation.compareAndSwap.earlierReference == 17)
        #expect(CalibrationOperation.threadCreateJoin.earlierReference == 46_000)
        #expect(CalibrationOperation.kernelStackPerThread.appleReference == 1_024)
        #expect(CalibrationOperation.defaultStackSize.appleReference == 524_288)
        #expect(CalibrationOperation.contextSwitch.appleReference == nil)
    }

    /// Every primitive that is a lock gets a row; ids are unique, so CSV rows can be joined.
    @Test func everyLockHasARowAndIDsAreUnique() {
        #expect(!CalibrationOperation.lockKinds.contains(.none))
        #expect(!CalibrationOperation.lockKinds.contains(.unprotected))
        #expect(!CalibrationOperation.lockKinds.contains(.atomic))
        #expect(CalibrationOperation.lockKinds.contains(.mutex) && CalibrationOperation.lockKinds.contains(.spinlock))
        let ids = CalibrationOperation.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains("lock_pthread_mutex"))
    }

    @Test func emptyRoundsGiveNoMedian() {
        let m = CalibrationMeasurement(.atomicAdd, rounds: [], method: "m")
        #expect(m.median.isNaN)
        #expect(m.summary == nil)
        #expect(m.ratio == nil)
    }
}
