import PoolSizeModel

/// Everything recorded during one trial, before any arithmetic. `TrialMetrics` derives the
/// numbers from it, so that arithmetic can be tested on hand-made samples.
package struct TrialMeasurement: Sendable {
    /// Size of the pool measured.
    package var poolSize: Int
    /// The measurement window (after warm-up), monotonic nanoseconds.
    package var windowStart: UInt64
    /// End of the measurement window (CLOCK_MONOTONIC ns).
    package var windowEnd: UInt64
    /// Process resource usage at the window's edges.
    package var usageAtStart: ProcessUsage
    /// Process resource usage at the window's end.
    package var usageAtEnd: ProcessUsage
    /// Every task that ran, including warm-up and drain.
    package var samples: [TaskSample]
    /// Most tasks executing at one instant.
    package var peakConcurrency: Int
    /// OS threads in the process at the end of the window (`/proc/self/status`), if readable.
    package var processThreads: Int?
    /// Machine-wide busy CPU at the window's edges (`/proc/stat`), if readable.
    package var machineBusyAtStart: UInt64?
    /// Machine busy time at the window's end; nil where unknown.
    package var machineBusyAtEnd: UInt64?
    /// Why the first few failed tasks failed (a command's status and last stderr line).
    package var failureExamples: [String] = []
    /// How tasks arrived: the closed loop, or an open loop's arrivals, latencies from intended
    /// arrival and backlog (TrialMeasurement+Load).
    package var loop: Loop = .closed
    /// The sizes a pool that sizes itself chose during the trial; empty for a fixed size.
    package var sizeSteps: [SizeStep] = []
    /// What the workload source watched outside the pool over the window (`TrialWindowWatch`).
    package var watched: TrialRecord.Watched = .nothing
    /// How the window ended: at its planned length, or once the throughput was known.
    package var windowEnded: TrialRecord.WindowEnd = .planned
    /// The margin the throughput was known to when the window ended early; nil otherwise, and
    /// the margin is worked out from the window's completions.
    package var knownMargin: Double?

    /// A trial's raw record, before metrics are derived.
    package init(
        poolSize: Int, windowStart: UInt64, windowEnd: UInt64, usageAtStart: ProcessUsage, usageAtEnd: ProcessUsage,
        samples: [TaskSample], peakConcurrency: Int, processThreads: Int?
    ) {
        self.poolSize = poolSize
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.usageAtStart = usageAtStart
        self.usageAtEnd = usageAtEnd
        self.samples = samples
        self.peakConcurrency = peakConcurrency
        self.processThreads = processThreads
    }

    /// The same measurement with the machine's busy CPU at the window's edges.
    package func withMachineBusy(start: UInt64?, end: UInt64?) -> TrialMeasurement {
        var copy = self
        copy.machineBusyAtStart = start
        copy.machineBusyAtEnd = end
        return copy
    }

    /// The same measurement with the sizes its pool chose.
    package func withSizeSteps(_ steps: [SizeStep]) -> TrialMeasurement {
        var copy = self
        copy.sizeSteps = steps
        return copy
    }

    /// The same measurement with the reasons of its first failed tasks.
    package func withFailures(_ examples: [String]) -> TrialMeasurement {
        var copy = self
        copy.failureExamples = examples
        return copy
    }
}
