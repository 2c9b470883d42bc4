/// Facts recorded with every run so results can be compared and reproduced (docs/conventions.md).
package struct MachineFacts: Equatable, Sendable, Codable {
    /// Cores the run sized for and how they were derived.
    package var cores: CoreCount
    /// `model name` from /proc/cpuinfo.
    package var cpuModel: String
    /// `uname` system, release and machine.
    package var kernel: String
    /// The Swift compiler that built poolsize.
    package var swiftVersion: String
    /// Timer slack of the measuring threads, in nanoseconds (`/proc/self/timerslack_ns`).
    package var timerSlackNanoseconds: Int?
    /// Nice value each QoS tier's workers actually ran at, measured, keyed by tier name.
    package var effectiveNiceByTier: [String: Int]
    /// The machine's host name.
    package var hostname: String

    /// Facts as measured.
    package init(
        cores: CoreCount, cpuModel: String, kernel: String, swiftVersion: String, timerSlackNanoseconds: Int?,
        effectiveNiceByTier: [String: Int], hostname: String
    ) {
        self.cores = cores
        self.cpuModel = cpuModel
        self.kernel = kernel
        self.swiftVersion = swiftVersion
        self.timerSlackNanoseconds = timerSlackNanoseconds
        self.effectiveNiceByTier = effectiveNiceByTier
        self.hostname = hostname
    }
}
