/// The three programs the harness benchmark runs (docs/guide/harness-overhead.md).
package enum HarnessSide: String, CaseIterable, Sendable {
    /// The sweep's closed-loop trial (`TrialRunner`) on a `QueuePool`.
    case harness
    /// The raw-dispatch reference resubmitting through the same kind of `QueuePool`'s `submit`
    /// (round-robin), as the trial does: the harness is measured against this one.
    case reference
    /// The raw-dispatch reference with each queue resubmitting to itself: against `reference`,
    /// what round-robin submission costs the pool in a closed loop.
    case ownQueue = "own-queue"
    /// The reference through an `AdaptiveQueuePool` held at the same size (minimum = maximum,
    /// its controller running): against `reference`, what the adaptive pool adds per task.
    case adaptive
}

/// Context switches (getrusage of the whole process) over runs of one side, and the tasks those
/// runs completed, warm-up and drain included.
package struct SwitchTally: Equatable, Sendable {
    /// Tasks completed.
    package var tasks: Int
    /// Voluntary switches: a thread blocked (an empty queue, a futex wait).
    package var voluntary: Int
    /// Involuntary switches: a thread was preempted.
    package var involuntary: Int

    /// A tally with these counts.
    package init(tasks: Int = 0, voluntary: Int = 0, involuntary: Int = 0) {
        self.tasks = tasks
        self.voluntary = voluntary
        self.involuntary = involuntary
    }

    /// Voluntary switches per task; nil without tasks.
    package var voluntaryPerTask: Double? { tasks > 0 ? Double(voluntary) / Double(tasks) : nil }
    /// Involuntary switches per task; nil without tasks.
    package var involuntaryPerTask: Double? { tasks > 0 ? Double(involuntary) / Double(tasks) : nil }

    /// Both tallies added.
    package static func + (lhs: SwitchTally, rhs: SwitchTally) -> SwitchTally {
        SwitchTally(
            tasks: lhs.tasks + rhs.tasks, voluntary: lhs.voluntary + rhs.voluntary,
            involuntary: lhs.involuntary + rhs.involuntary)
    }
}

/// One point of the harness benchmark: the same task body on the same number of serial queues,
/// measured by a closed-loop trial (`TrialRunner` on a `QueuePool`), by the raw-dispatch
/// reference through the same pool's `submit`, and by the reference resubmitting to each
/// queue itself, in rotating order, `repeats` times each.
package struct HarnessPoint: Equatable, Sendable {
    /// CPU time of each task, µs (no wait).
    package var taskMicroseconds: Double
    /// Serial queues.
    package var size: Int
    /// Throughput of each harness trial, tasks/s.
    package var harnessPerSecond: [Double]
    /// Throughput of each reference run (through the pool's submit), tasks/s.
    package var referencePerSecond: [Double]
    /// Throughput of each own-queue reference run, tasks/s; empty when that side did not run.
    package var ownQueuePerSecond: [Double]
    /// Throughput of each adaptive-pool reference run, tasks/s; empty when that side did not run.
    package var adaptivePerSecond: [Double] = []
    /// Context switches per side, summed over its runs; a side that did not run is absent.
    package var switches: [HarnessSide: SwitchTally]

    /// A point with these runs.
    package init(
        taskMicroseconds: Double, size: Int, harnessPerSecond: [Double], referencePerSecond: [Double],
        ownQueuePerSecond: [Double] = [], switches: [HarnessSide: SwitchTally] = [:]
    ) {
        self.taskMicroseconds = taskMicroseconds
        self.size = size
        self.harnessPerSecond = harnessPerSecond
        self.referencePerSecond = referencePerSecond
        self.ownQueuePerSecond = ownQueuePerSecond
        self.switches = switches
    }

    /// Median harness throughput.
    package var harnessMedian: Double { Self.median(harnessPerSecond) }
    /// Median reference throughput.
    package var referenceMedian: Double { Self.median(referencePerSecond) }
    /// Median own-queue reference throughput.
    package var ownQueueMedian: Double { Self.median(ownQueuePerSecond) }
    /// Harness median over reference median; 1 means the harness costs nothing measurable.
    package var ratio: Double { referenceMedian > 0 ? harnessMedian / referenceMedian : 0 }
    /// Harness over reference within each repetition (the two ran back to back, in rotating
    /// order), so a reader sees how far one run's noise moves the ratio; empty when a side did
    /// not run.
    package var pairedRatios: [Double] {
        zip(harnessPerSecond, referencePerSecond).compactMap { $1 > 0 ? $0 / $1 : nil }
    }
    /// The harness's cost per task in ns at this point: 1/harness − 1/reference, as wall time
    /// per completion across the whole pool (negative when the harness happened to be faster).
    package var costPerTaskNanoseconds: Double {
        harnessMedian > 0 && referenceMedian > 0 ? (1 / harnessMedian - 1 / referenceMedian) * 1e9 : 0
    }
    /// Median adaptive-pool reference throughput.
    package var adaptiveMedian: Double { Self.median(adaptivePerSecond) }
    /// What the adaptive pool adds per task over `QueuePool` in ns: 1/adaptive − 1/reference
    /// (negative when it happened to be faster); 0 when a side did not run.
    package var adaptiveCostPerTaskNanoseconds: Double {
        adaptiveMedian > 0 && referenceMedian > 0 ? (1 / adaptiveMedian - 1 / referenceMedian) * 1e9 : 0
    }
    /// Reference median over own-queue median: below 1 by what submitting through the pool
    /// (round-robin) costs compared with each queue feeding itself; 0 when a side did not run.
    package var poolSubmissionRatio: Double { ownQueueMedian > 0 ? referenceMedian / ownQueueMedian : 0 }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
