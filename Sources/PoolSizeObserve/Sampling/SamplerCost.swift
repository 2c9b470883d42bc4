/// What observing cost the observer: measured, not assumed, and printed with every observation
/// (the target is never stopped or signalled; this CPU is the only disturbance).
package struct SamplerCost: Equatable, Sendable, Codable {
    /// Sampled instants (sweeps over every thread).
    package var sweeps: Int
    /// Thread reads across all sweeps.
    package var threadReads: Int
    /// CPU the sampling thread used (CLOCK_THREAD_CPUTIME_ID), nanoseconds.
    package var samplerCPUNanoseconds: UInt64
    /// CPU the whole observer process used over the observation (getrusage), nanoseconds.
    package var processCPUNanoseconds: UInt64
    /// Wall-clock length of the sampling, seconds.
    package var wallSeconds: Double
    /// The share of one core the automatic rate aimed at; nil at a fixed rate.
    package var budgetFraction: Double?
    /// What the first and the last sweep cost together (they read every thread's status and are
    /// never skipped), nanoseconds; nil at a fixed rate.
    package var boundarySweepsCPUNanoseconds: UInt64?

    /// Keys as a snake_cased file reads back (`sampler_cpu_nanoseconds` → `samplerCpuNanoseconds`).
    enum CodingKeys: String, CodingKey {
        case sweeps, threadReads, wallSeconds, budgetFraction
        case boundarySweepsCPUNanoseconds = "boundarySweepsCpuNanoseconds"
        case samplerCPUNanoseconds = "samplerCpuNanoseconds", processCPUNanoseconds = "processCpuNanoseconds"
    }

    /// The sampling thread's CPU as a fraction of one core.
    package var fractionOfOneCore: Double { wallSeconds > 0 ? Double(samplerCPUNanoseconds) / 1e9 / wallSeconds : 0 }

    /// The first and last sweeps' CPU as a fraction of one core over the observation, when it
    /// is above what the automatic rate promises (they alone broke it); nil otherwise.
    package var boundaryFractionOverPromise: Double? {
        guard budgetFraction != nil, let boundary = boundarySweepsCPUNanoseconds, wallSeconds > 0,
            fractionOfOneCore > SamplingBudget.ceilingFraction
        else { return nil }
        return Double(boundary) / 1e9 / wallSeconds
    }

    /// Mean sampling rate, sweeps per second.
    package var meanRatePerSecond: Double { wallSeconds > 0 ? Double(sweeps) / wallSeconds : 0 }

    /// CPU per thread read, nanoseconds.
    package var nanosecondsPerThreadRead: Double {
        threadReads > 0 ? Double(samplerCPUNanoseconds) / Double(threadReads) : 0
    }
}
