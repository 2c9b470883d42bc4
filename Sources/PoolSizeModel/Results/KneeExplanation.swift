/// Why a closed loop's knee and the formula agree or not, as the analysis found it; Output puts
/// it into words (`SizingProse`).
package enum KneeExplanation: Equatable, Sendable {
    /// Throughput still rose at the largest size measured: no knee yet. `suggestedLargest` is
    /// the size to measure up to.
    case stillRising(largest: Int, suggestedLargest: Int)
    /// Throughput still rose at the largest size measured, and no larger size can be measured:
    /// `limit` is the most the target allows (a database's connections), and the answer.
    case stillRisingAtLimit(largest: Int, limit: Int)
    /// Knee and formula within `Recommender.disagreementThreshold`; `gap` is their relative distance.
    case agree(gap: Double)
    /// No size was measured near the formula's count, between `below` and `above`.
    case tooCoarse(below: Int, above: Int, step: Int)
    /// The pool never ran more than `maxReached` tasks at once, so larger sizes add nothing.
    case overPredictedConcurrency(maxReached: Int)
    /// Something other than CPU capped throughput: the CPU was only this busy at the knee.
    case overPredictedSerialization(kneeUtilization: Double)
    /// Something other than CPU capped throughput, and it is the interpreter lock of the
    /// runtime the server's processes run: the CPU was only `kneeUtilization` busy at the knee.
    case overPredictedInterpreterLock(kneeUtilization: Double, lock: InterpreterLockLimit)
    /// The CPU was busy at the knee, and each task cost `kneeCPUMicroseconds` there.
    case overPredictedCPU(kneeUtilization: Double, kneeCPUMicroseconds: Double)
    /// More CPU was available than the core count assumed.
    case underPredictedCores(kneeUtilization: Double)
    /// Tasks queue for the CPU; a closed queueing network puts the knee at `modelKnee`.
    case underPredictedQueueing(modelKnee: Int)
    /// Tasks waited longer under load than alone.
    case underPredictedWait
    /// No W/C was measured (a load tool run alone prints no CPU time per request), so there is
    /// no formula to set against the knee; `stillRisingAt` is the largest size when the curve
    /// had not flattened by it, nil when the knee was found.
    case withoutWaitCPU(stillRisingAt: Int?)
}
