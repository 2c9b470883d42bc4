import Foundation

/// Which pool sizes a sweep measures (`--sizes`).
public enum SizeSelection: Equatable, Sendable {
    /// Chosen from the formula's prediction once W/C is measured (`SizeGrid.auto`).
    case auto
    /// Exactly these sizes, in ascending order.
    case explicit([Int])

    /// Largest pool size the tool will build (serial queues are overcommit in libdispatch, up
    /// to 255 threads per QoS bucket; plain threads go further).
    public static let maximumSize = 4096

    /// Parses `auto`, a comma-separated list (`1,2,4,8`), ranges (`1...16`, `1..16`) and ranges
    /// with a step (`8...64:8`), in any mix. The result is sorted with duplicates removed.
    public static func parse(_ text: String) throws(PoolSizeError) -> SizeSelection {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "auto" { return .auto }
        let usage = "use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        if trimmed.isEmpty { throw .invalidOption(flag: "--sizes", message: "no sizes given; \(usage)") }
        var sizes: Set<Int> = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let part = item.trimmingCharacters(in: .whitespaces)
            if part.isEmpty { throw .invalidOption(flag: "--sizes", message: "empty entry in '\(text)'; \(usage)") }
            for size in try parseItem(part, usage: usage) {
                guard size >= 1 else { throw .invalidOption(flag: "--sizes", message: "pool size \(size) is not positive; every size must be at least 1") }
                guard size <= maximumSize else { throw .invalidOption(flag: "--sizes", message: "pool size \(size) exceeds the maximum \(maximumSize)") }
                sizes.insert(size)
            }
        }
        return .explicit(sizes.sorted())
    }

    private static func parseItem(_ part: String, usage: String) throws(PoolSizeError) -> [Int] {
        let separator = part.contains("...") ? "..." : (part.contains("..") ? ".." : nil)
        guard let separator else {
            guard let value = Int(part) else { throw .invalidOption(flag: "--sizes", message: "'\(part)' is not a whole number; \(usage)") }
            return [value]
        }
        let bounds = part.components(separatedBy: separator)
        let upperAndStep = bounds.count == 2 ? bounds[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init) : []
        guard bounds.count == 2, let low = Int(bounds[0]), (1...2).contains(upperAndStep.count), let high = Int(upperAndStep[0]) else {
            throw .invalidOption(flag: "--sizes", message: "'\(part)' is not a range; \(usage)")
        }
        let step = upperAndStep.count == 2 ? Int(upperAndStep[1]) : 1
        guard let step, step >= 1 else { throw .invalidOption(flag: "--sizes", message: "step in '\(part)' must be a whole number >= 1") }
        guard min(low, high) >= 1 else { throw .invalidOption(flag: "--sizes", message: "pool size \(min(low, high)) is not positive; every size must be at least 1") }
        guard low <= high else { throw .invalidOption(flag: "--sizes", message: "range '\(part)' runs backwards; write \(high)...\(low)") }
        guard high <= maximumSize else { throw .invalidOption(flag: "--sizes", message: "pool size \(high) exceeds the maximum \(maximumSize)") }
        return Array(stride(from: low, through: high, by: step))
    }
}

/// The sizes `--sizes auto` measures around a prediction P = cores × U × (1 + W/C).
public enum SizeGrid {
    /// Powers of two below 0.75 P show the linear rise; steps of about P/16 from 0.75 P to
    /// 1.25 P resolve the knee to within ~6%; 1.5 P and 2 P (at least 2 × cores) show the plateau.
    public static func auto(prediction: Double, cores: Int) -> [Int] {
        let p = max(prediction, 1)
        var sizes: Set<Int> = []
        var power = 1
        while Double(power) < 0.75 * p {
            sizes.insert(power)
            power *= 2
        }
        let step = max(1, Int((p / 16).rounded()))
        var size = max(1, Int((0.75 * p).rounded(.down)))
        while Double(size) <= (1.25 * p).rounded(.up) {
            sizes.insert(size)
            size += step
        }
        sizes.insert(Int((1.5 * p).rounded()))
        sizes.insert(max(Int((2 * p).rounded(.up)), 2 * cores))
        sizes.insert(1)
        return sizes.filter { $0 >= 1 && $0 <= SizeSelection.maximumSize }.sorted()
    }
}
