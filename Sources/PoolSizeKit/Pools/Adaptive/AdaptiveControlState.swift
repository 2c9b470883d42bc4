import PoolSizeModel

/// The adaptive pool's controller and what it needs to turn the queues' running counters into one
/// window: the counters at the last window's end. Guarded by the pool's lock, changed only by `tick`.
package struct AdaptiveControlState {
    package var controller: AdaptiveController
    let startNanoseconds: UInt64
    var lastNanoseconds: UInt64
    var lastProcessCPU: UInt64
    /// Each queue's finished count at the last window's end.
    var lastFinished: [UInt64] = []
    var previousFinished: UInt64 = 0
    var lastSampled: UInt64 = 0
    var lastCPU: UInt64 = 0
    var lastWall: UInt64 = 0
    var lastRunQueue: UInt64 = 0
    /// Most queues ever active: the ones whose counters can still move.
    var highWater: Int
    /// `shutdown()` was called: a timer event already under way changes nothing.
    var stopped = false
    /// Every decision so far (at most `maximumSteps`; the oldest are dropped).
    var steps: [SizeStep] = []
    static let maximumSteps = 100_000
    /// The latest changes of size with their reasons, for `status` (at most `maximumChanges`).
    var changes: [AdaptivePoolStatus.Change] = []
    static let maximumChanges = 64
    /// Windows decided, and the last one's process CPU share of the cores.
    var windows = 0
    var lastUtilization = 0.0

    init(controller: AdaptiveController, clocks: any MeasurementClocks) {
        self.controller = controller
        startNanoseconds = clocks.wallNanoseconds()
        lastNanoseconds = startNanoseconds
        lastProcessCPU = clocks.processUsage().cpuNanoseconds
        highWater = controller.size
    }
}
