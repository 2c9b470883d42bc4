import PoolSizeStats

/// Turns an observation's sweeps into per-pool estimates. Pure: no /proc, no clock, so it is
/// tested on recordings of real processes (Tests/Fixtures/observe/) and on hand-made sweeps.
///
/// The sweeps go through `ObservationAccumulator` (what each interval contributes is described
/// there). Off-CPU time (thread time − C − Q) is split by the blocked samples' classes.
/// Intervals come from batch means: the observation cut into equal sub-intervals, each
/// estimated alone (Law & Kelton, *Simulation Modeling and Analysis*, §9.5.3).
package enum ObservationEstimator {
    /// The most slices a pool's timeline has: a second each up to an hour, longer beyond.
    package static let maximumSlices = 3600

    /// The length of a timeline slice for an observation of `durationSeconds`: one second, or
    /// the power of two seconds that keeps the slices within `maximumSlices` (the grid widens by
    /// merging pairs of slices as the observation runs, `ObservationAccumulator`).
    package static func sliceSeconds(durationSeconds: Double) -> Double {
        var seconds = 1.0
        while durationSeconds > Double(maximumSlices) * seconds { seconds *= 2 }
        return seconds
    }

    /// The estimate of every pool in `record`: its sweeps replayed through an
    /// `ObservationAccumulator`, as a live observation adds them.
    package static func estimate(_ record: ObservationRecord, settings: EstimatorSettings) -> Observation {
        var accumulator = ObservationAccumulator(
            architecture: record.header.architecture, clockTicksPerSecond: record.header.clockTicksPerSecond,
            groupRules: settings.groupRules,
            titles: Dictionary(record.processes.map { ($0.pid, $0.title) }, uniquingKeysWith: { _, last in last }))
        for sweep in record.sweeps { accumulator.add(sweep) }
        return accumulator.observation(header: record.header, processes: record.processes, settings: settings)
    }
}

/// A thread, across processes (`--children`).
struct ThreadKey: Hashable, Sendable {
    let pid: Int32
    let tid: Int32

    init(_ reading: ThreadReading) {
        pid = reading.pid
        tid = reading.tid
    }

    init(pid: Int32, tid: Int32) {
        self.pid = pid
        self.tid = tid
    }
}
