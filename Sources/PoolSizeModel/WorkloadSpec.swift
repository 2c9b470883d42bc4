/// A synthetic task: burn `cpuMicroseconds` of thread CPU time, then block for
/// `waitMicroseconds`. Its analytic optimum is known (docs/platform.md "Measuring W and C"):
/// in a closed loop without contention X(N) = min(N / (W + C), cores / C), with the knee at
/// cores × (1 + W/C), so a spec doubles as a known-answer test for the whole tool.
package struct WorkloadSpec: Equatable, Sendable, Codable {
    /// Names the workload in files, charts and reports (one line of text).
    package var name: String
    /// What the workload stands for, in a sentence.
    package var description: String
    /// CPU time each task burns (thread CPU clock), before jitter.
    package var cpuMicroseconds: Double
    /// Time each task blocks in a sleep, before jitter.
    package var waitMicroseconds: Double
    /// How task times vary around the means.
    package var jitter: Jitter
    /// For `uniform` jitter: each time is drawn from mean × [1 − spread, 1 + spread].
    package var jitterSpread: Double
    /// How long one trial keeps the pool busy (closed loop).
    package var trialMilliseconds: Int
    /// Optional cap on tasks per trial; the trial ends at whichever comes first.
    package var maxTasks: Int?
    /// Length of the critical section each task enters, guarded by the trial's primitive.
    package var criticalMicroseconds: Double
    /// Real disk IO per task: bytes written to a scratch file, then fsync'd (KiB; 0 for none).
    package var fileWriteKilobytes: Double = 0
    /// Real disk IO per task: bytes read from a scratch file after dropping them from the page
    /// cache, so the device serves them (KiB; 0 for none).
    package var fileReadKilobytes: Double = 0
    /// Times that change during a trial (`phases:`), in order of start; empty for a workload
    /// whose tasks keep the spec's means throughout.
    package var phases: [WorkloadPhase] = []

    /// Whether the task does real file IO (its W is then the device's, measured, not declared).
    package var doesFileIO: Bool { fileWriteKilobytes > 0 || fileReadKilobytes > 0 }

    /// A spec; defaults are those of a spec file.
    package init(
        name: String, description: String = "", cpuMicroseconds: Double, waitMicroseconds: Double,
        jitter: Jitter = .none, jitterSpread: Double = 0.2, trialMilliseconds: Int = 1000,
        maxTasks: Int? = nil, criticalMicroseconds: Double = 0
    ) {
        self.name = name
        self.description = description
        self.cpuMicroseconds = cpuMicroseconds
        self.waitMicroseconds = waitMicroseconds
        self.jitter = jitter
        self.jitterSpread = jitterSpread
        self.trialMilliseconds = trialMilliseconds
        self.maxTasks = maxTasks
        self.criticalMicroseconds = criticalMicroseconds
    }

    enum CodingKeys: String, CodingKey {
        case name, description, cpuMicroseconds, waitMicroseconds, jitter, jitterSpread, trialMilliseconds, maxTasks,
            criticalMicroseconds
        case fileWriteKilobytes, fileReadKilobytes, phases
    }

    /// W/C as the spec declares it.
    package var waitCPURatio: Double { waitMicroseconds / cpuMicroseconds }

    /// The analytic optimum pool size cores × (1 + W/C).
    package func analyticOptimum(cores: Double) -> Double { cores * (1 + waitCPURatio) }
}

/// How task times vary around the spec's means. Draws are seeded (`--seed`).
package enum Jitter: String, CaseIterable, Codable, Sendable {
    /// Every task takes exactly the spec's times.
    case none
    /// Uniform in mean × [1 − spread, 1 + spread].
    case uniform
    /// Exponential with the spec's mean (memoryless service and think times).
    case exponential
}
