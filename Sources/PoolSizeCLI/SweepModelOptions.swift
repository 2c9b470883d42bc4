import ArgumentParser
import PoolSizeModel

/// What the recommendation sizes for: the cores, the utilization to aim at, and how close to the
/// peak the knee is.
struct SweepModelOptions: ParsableArguments {
    @Option(help: "Cores to size for, 1 to 4096 (default: min of the affinity mask and the cgroup CPU quota).")
    var cores: Int?

    @Option(name: .customLong("target-utilization"), help: "Target CPU utilization U, 0.05 to 1.")
    var targetUtilization: Double = 1.0

    @Option(help: "The knee is the smallest size within this share of peak throughput, in (0, 0.5).")
    var tolerance: Double = 0.05

    /// The flags, checked.
    func check() throws(PoolSizeError) {
        if let cores, cores < 1 || cores > SizeSelection.maximumSize {
            throw .invalidOption(flag: "--cores", message: "must be 1 to \(SizeSelection.maximumSize), got \(cores)")
        }
        guard targetUtilization >= 0.05 && targetUtilization <= 1 else {
            throw .invalidOption(
                flag: "--target-utilization", message: "must be 0.05 to 1, got \(targetUtilization); write 0.8 for 80%")
        }
        guard tolerance > 0 && tolerance < 0.5 else {
            throw .invalidOption(
                flag: "--tolerance", message: "must be in (0, 0.5), got \(tolerance); write 0.05 for 5%")
        }
    }
}
