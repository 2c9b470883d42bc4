import Foundation
import PoolSizeModel
import PoolSizeStats

/// What a sweep will cost before it runs: its trials, time and memory.
public struct SweepEstimate: Equatable, Sendable {
    /// The sizes the sweep will measure (for `auto`, the grid the spec's W/C predicts).
    public var sizes: [Int]
    /// Measured trials (every combination, size and repetition) plus warm-up trials.
    public var trials: Int
    /// Seconds of trials and the low-load phase; `auto` may add up to twice the grid's end.
    public var seconds: Double
    /// Bytes the sweep may hold at once: its trial plan and records, and the largest pool's
    /// threads (stack pages touched and kernel stack).
    public var bytes: Double

    /// A sweep this long is refused: a plan typed by mistake must not run for days.
    public static let maximumSeconds = 24.0 * 3600
    /// Memory a thread of a pool costs here (measured by `poolsize calibrate`: about 8 KiB of
    /// resident stack and 16 KiB of kernel stack), rounded up.
    static let bytesPerThread = 64.0 * 1024
    /// A trial's plan entry and record.
    static let bytesPerTrial = 2.0 * 1024
    /// The low-load phase runs at most this long.
    static let lowLoadSeconds = 6.0

    /// An estimate from its figures.
    public init(sizes: [Int], trials: Int, seconds: Double, bytes: Double) {
        self.sizes = sizes
        self.trials = trials
        self.seconds = seconds
        self.bytes = bytes
    }

    /// `1,234 trials, about 2 h 3 min, 1.2 GiB`.
    public var summary: String {
        "\(trials) trial\(trials == 1 ? "" : "s") at sizes \(sizes.count > 12 ? "\(sizes.first!)…\(sizes.last!) (\(sizes.count) sizes)" : sizes.map(String.init).joined(separator: ",")), about \(Self.duration(seconds)), up to \(Self.memory(bytes))"
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 120 { return "\(Int(seconds.rounded(.up))) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded(.up))) min" }
        let hours = seconds / 3600
        return hours < 48 ? "\(UnitFormat.number(hours)) h" : "\(UnitFormat.number(hours / 24)) days"
    }

    /// `512 MiB`, `1.2 GiB`.
    public static func memory(_ bytes: Double) -> String {
        if bytes < 1024 * 1024 * 1024 { return "\(Int((bytes / 1024 / 1024).rounded(.up))) MiB" }
        return "\(UnitFormat.number(bytes / 1024 / 1024 / 1024)) GiB"
    }
}

extension SweepPlan {
    /// The cost of this plan. For `auto` sizes the grid comes from the spec's declared W/C (the
    /// measured one moves it little); a workload with no declared times is planned as W/C = 0.
    public var estimate: SweepEstimate {
        let declared = spec.cpuMicroseconds > 0 ? spec.waitCPURatio : 0
        let grid: [Int]
        switch sizes {
        case .auto: grid = SizeGrid.auto(prediction: SizingFormula.queueCount(cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: declared), cores: cores)
        case let .explicit(list): grid = list
        }
        let measured = Double(combinations.count) * Double(grid.count) * Double(repetitions)
        let trials = measured + Double(warmupTrials)
        let settings = trialSettings(taskNanoseconds: UInt64((spec.cpuMicroseconds + spec.waitMicroseconds) * 1_000))
        // The first tasks are staggered over `staggerNanoseconds`, and a trial waits for the
        // pool to drain: one task period beyond its planned length.
        let perTrial = Double(settings.durationNanoseconds + settings.staggerNanoseconds) / 1e9 + (spec.cpuMicroseconds + spec.waitMicroseconds) / 1e6
        let seconds = trials * perTrial + SweepEstimate.lowLoadSeconds
        let bytes = trials * SweepEstimate.bytesPerTrial + Double(grid.max() ?? 1) * SweepEstimate.bytesPerThread
        return SweepEstimate(sizes: grid, trials: trials > Double(Int.max) ? Int.max : Int(trials), seconds: seconds, bytes: bytes)
    }
}
