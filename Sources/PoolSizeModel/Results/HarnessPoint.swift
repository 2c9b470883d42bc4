/// One point of the harness benchmark: the same task body on the same number of serial queues,
/// measured by a closed-loop trial (`TrialRunner` on a `QueuePool`) and by the raw-dispatch
/// reference, alternately, `repeats` times each.
public struct HarnessPoint: Equatable, Sendable {
    /// CPU time of each task, µs (no wait).
    public var taskMicroseconds: Double
    /// Serial queues.
    public var size: Int
    /// Throughput of each harness trial, tasks/s.
    public var harnessPerSecond: [Double]
    /// Throughput of each reference run, tasks/s.
    public var referencePerSecond: [Double]

    /// A point with these runs.
    public init(taskMicroseconds: Double, size: Int, harnessPerSecond: [Double], referencePerSecond: [Double]) {
        self.taskMicroseconds = taskMicroseconds
        self.size = size
        self.harnessPerSecond = harnessPerSecond
        self.referencePerSecond = referencePerSecond
    }

    /// Median harness throughput.
    public var harnessMedian: Double { Self.median(harnessPerSecond) }
    /// Median reference throughput.
    public var referenceMedian: Double { Self.median(referencePerSecond) }
    /// Harness median over reference median; 1 means the harness costs nothing measurable.
    public var ratio: Double { referenceMedian > 0 ? harnessMedian / referenceMedian : 0 }
    /// The harness's cost per task in ns at this point: 1/harness − 1/reference, as wall time
    /// per completion across the whole pool (negative when the harness happened to be faster).
    public var costPerTaskNanoseconds: Double {
        harnessMedian > 0 && referenceMedian > 0 ? (1 / harnessMedian - 1 / referenceMedian) * 1e9 : 0
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
