/// The names a recommendation's figures had before every size was called a queue count, kept so
/// code written against them still builds (with a warning naming the new name).
extension Recommendation {
    /// The knee; renamed `kneeQueueCount`.
    @available(*, deprecated, renamed: "kneeQueueCount")
    public var kneePoolSize: Int {
        get { kneeQueueCount }
        set { kneeQueueCount = newValue }
    }

    /// The queue count of the highest throughput; renamed `peakQueueCount`.
    @available(*, deprecated, renamed: "peakQueueCount")
    public var peakPoolSize: Int {
        get { peakQueueCount }
        set { peakQueueCount = newValue }
    }

    /// A recommendation from its figures, with the knee and the peak under their old names.
    @available(*, deprecated, message: "use the labels kneeQueueCount: and peakQueueCount:")
    public init(
        workload: String, cores: Int, waitCPURatio: Double, waitCPURatioLower: Double?, waitCPURatioUpper: Double?,
        specWaitCPURatio: Double?, cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double,
        targetUtilization: Double,
        formulaQueueCountExact: Double, formulaQueueCountStandardError: Double, formulaQueueCount: Int,
        kneePoolSize: Int,
        kneeThroughputPerSecond: Double, peakPoolSize: Int, peakThroughputPerSecond: Double, tolerance: Double,
        recommendedQueueCount: Int, sizing: Sizing, reason: String
    ) {
        self.init(
            workload: workload, cores: cores, waitCPURatio: waitCPURatio, waitCPURatioLower: waitCPURatioLower,
            waitCPURatioUpper: waitCPURatioUpper, specWaitCPURatio: specWaitCPURatio,
            cpuMicrosecondsPerTask: cpuMicrosecondsPerTask, waitMicrosecondsPerTask: waitMicrosecondsPerTask,
            targetUtilization: targetUtilization, formulaQueueCountExact: formulaQueueCountExact,
            formulaQueueCountStandardError: formulaQueueCountStandardError, formulaQueueCount: formulaQueueCount,
            kneeQueueCount: kneePoolSize, kneeThroughputPerSecond: kneeThroughputPerSecond,
            peakQueueCount: peakPoolSize, peakThroughputPerSecond: peakThroughputPerSecond, tolerance: tolerance,
            recommendedQueueCount: recommendedQueueCount, sizing: sizing, reason: reason)
    }
}
