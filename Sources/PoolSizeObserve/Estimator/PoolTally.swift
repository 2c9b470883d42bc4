/// Sums the estimator collects for one pool, or one pool within one batch or slice: thread
/// time, CPU, run-queue time, and samples by class. Internal to the estimator; stored flat (no
/// dictionary) because an observation holds one per pool, per batch atom and per slice.
struct PoolTally: Sendable {
    /// Thread-seconds observed.
    var threadSeconds = 0.0
    /// On-CPU seconds (schedstat deltas).
    var cpuSeconds = 0.0
    /// Run-queue seconds (schedstat deltas).
    var runQueueSeconds = 0.0
    /// Samples by class, each weighing 1, or the part of its interval that fell in a slice.
    private var running = 0.0, blockedIO = 0.0, idle = 0.0, ambiguous = 0.0

    mutating func add(
        threadSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double, sample: SampleClass, weight: Double = 1
    ) {
        self.threadSeconds += threadSeconds
        self.cpuSeconds += cpuSeconds
        self.runQueueSeconds += runQueueSeconds
        switch sample {
        case .running: running += weight
        case .blockedIO: blockedIO += weight
        case .idle: idle += weight
        case .ambiguous: ambiguous += weight
        }
    }

    /// Adds another tally's sums (a merged bucket, a pool's several processes).
    mutating func add(_ other: PoolTally) {
        threadSeconds += other.threadSeconds
        cpuSeconds += other.cpuSeconds
        runQueueSeconds += other.runQueueSeconds
        running += other.running
        blockedIO += other.blockedIO
        idle += other.idle
        ambiguous += other.ambiguous
    }

    /// The samples (or sample weight) of `sampleClass`.
    func weight(_ sampleClass: SampleClass) -> Double {
        switch sampleClass {
        case .running: running
        case .blockedIO: blockedIO
        case .idle: idle
        case .ambiguous: ambiguous
        }
    }

    /// The five shares. Running and runnable are schedstat's exact C/S and Q/S; the rest of the
    /// thread time is off-CPU and split in the proportions the blocked samples were found in.
    /// Off-CPU time that no sample caught blocked counts as ambiguous.
    var shares: [ShareKind: Double] {
        guard threadSeconds > 0 else { return [:] }
        let running = min(1, cpuSeconds / threadSeconds)
        let runnable = min(1 - running, runQueueSeconds / threadSeconds)
        let off = max(0, 1 - running - runnable)
        let blocked = blockedIO + idle + ambiguous
        guard blocked > 0 else {
            return [.running: running, .runnable: runnable, .blockedIO: 0, .ambiguous: off, .idle: 0]
        }
        return [
            .running: running, .runnable: runnable, .blockedIO: off * blockedIO / blocked,
            .ambiguous: off * ambiguous / blocked, .idle: off * idle / blocked,
        ]
    }

    /// Samples of `sampleClass` (whole samples outside slices).
    func count(_ sampleClass: SampleClass) -> Int { Int(weight(sampleClass).rounded()) }

    /// Samples of every class.
    var sampleCount: Int { Int((running + blockedIO + idle + ambiguous).rounded()) }
}
