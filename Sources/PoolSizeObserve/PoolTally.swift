/// Sums the estimator collects for one pool, or one pool within one batch: thread time, CPU,
/// run-queue time, and samples by class. Internal to the estimator.
struct PoolTally {
    /// Thread-seconds observed.
    var threadSeconds = 0.0
    /// On-CPU seconds (schedstat deltas).
    var cpuSeconds = 0.0
    /// Run-queue seconds (schedstat deltas).
    var runQueueSeconds = 0.0
    /// Samples by class.
    var samples: [SampleClass: Int] = [:]

    mutating func add(threadSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double, sample: SampleClass) {
        self.threadSeconds += threadSeconds
        self.cpuSeconds += cpuSeconds
        self.runQueueSeconds += runQueueSeconds
        samples[sample, default: 0] += 1
    }

    /// The five shares. Running and runnable are schedstat's exact C/S and Q/S; the rest of the
    /// thread time is off-CPU and split in the proportions the blocked samples were found in.
    /// Off-CPU time that no sample caught blocked counts as ambiguous.
    var shares: [ShareKind: Double] {
        guard threadSeconds > 0 else { return [:] }
        let running = min(1, cpuSeconds / threadSeconds)
        let runnable = min(1 - running, runQueueSeconds / threadSeconds)
        let off = max(0, 1 - running - runnable)
        let io = Double(samples[.blockedIO] ?? 0), idle = Double(samples[.idle] ?? 0),
            ambiguous = Double(samples[.ambiguous] ?? 0)
        let blocked = io + idle + ambiguous
        guard blocked > 0 else {
            return [.running: running, .runnable: runnable, .blockedIO: 0, .ambiguous: off, .idle: 0]
        }
        return [
            .running: running, .runnable: runnable, .blockedIO: off * io / blocked,
            .ambiguous: off * ambiguous / blocked, .idle: off * idle / blocked,
        ]
    }

    /// Samples of every class.
    var sampleCount: Int { samples.values.reduce(0, +) }
}
