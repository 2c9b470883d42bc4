/// What observing cost the observer: measured, not assumed, and printed with every observation
/// (the target is never stopped or signalled; this CPU is the only disturbance).
public struct SamplerCost: Equatable, Sendable, Codable {
    /// Sampled instants (sweeps over every thread).
    public var sweeps: Int
    /// Thread reads across all sweeps.
    public var threadReads: Int
    /// CPU the sampling thread used (CLOCK_THREAD_CPUTIME_ID), nanoseconds.
    public var samplerCPUNanoseconds: UInt64
    /// CPU the whole observer process used over the observation (getrusage), nanoseconds.
    public var processCPUNanoseconds: UInt64
    /// Wall-clock length of the sampling, seconds.
    public var wallSeconds: Double

    /// A cost record.
    public init(sweeps: Int, threadReads: Int, samplerCPUNanoseconds: UInt64, processCPUNanoseconds: UInt64, wallSeconds: Double) {
        self.sweeps = sweeps
        self.threadReads = threadReads
        self.samplerCPUNanoseconds = samplerCPUNanoseconds
        self.processCPUNanoseconds = processCPUNanoseconds
        self.wallSeconds = wallSeconds
    }

    /// The sampling thread's CPU as a fraction of one core.
    public var fractionOfOneCore: Double { wallSeconds > 0 ? Double(samplerCPUNanoseconds) / 1e9 / wallSeconds : 0 }

    /// Mean sampling rate, sweeps per second.
    public var meanRatePerSecond: Double { wallSeconds > 0 ? Double(sweeps) / wallSeconds : 0 }

    /// CPU per thread read, nanoseconds.
    public var nanosecondsPerThreadRead: Double { threadReads > 0 ? Double(samplerCPUNanoseconds) / Double(threadReads) : 0 }
}
