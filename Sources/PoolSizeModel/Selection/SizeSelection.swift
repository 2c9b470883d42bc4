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
        if trimmed.isEmpty { throw .invalidParameter(.sizes, message: "no sizes given; \(usage)") }
        var sizes: Set<Int> = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let part = item.trimmingCharacters(in: .whitespaces)
            if part.isEmpty { throw .invalidParameter(.sizes, message: "empty entry in '\(text)'; \(usage)") }
            for size in try parseItem(part, usage: usage) {
                if let refusal = refusal(size) { throw .invalidParameter(.sizes, message: refusal) }
                sizes.insert(size)
            }
        }
        return .explicit(sizes.sorted())
    }

    /// Why `size` cannot be measured, in the words every source of sizes uses (`sizes` and a
    /// recorded run's, `sizesFrom`); nil when it can.
    package static func refusal(_ size: Int) -> String? {
        if size < 1 { return "pool size \(size) is not positive; every size must be at least 1" }
        if size > maximumSize { return "pool size \(size) exceeds the maximum \(maximumSize)" }
        return nil
    }

    private static func parseItem(_ part: String, usage: String) throws(PoolSizeError) -> [Int] {
        let separator = part.contains("...") ? "..." : (part.contains("..") ? ".." : nil)
        guard let separator else {
            guard let value = Int(part) else {
                throw .invalidParameter(.sizes, message: "'\(part)' is not a whole number; \(usage)")
            }
            return [value]
        }
        let bounds = part.components(separatedBy: separator)
        let upperAndStep =
            bounds.count == 2 ? bounds[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init) : []
        guard bounds.count == 2, let low = Int(bounds[0]), (1...2).contains(upperAndStep.count),
            let high = Int(upperAndStep[0])
        else {
            throw .invalidParameter(.sizes, message: "'\(part)' is not a range; \(usage)")
        }
        let step = upperAndStep.count == 2 ? Int(upperAndStep[1]) : 1
        guard let step, step >= 1 else {
            throw .invalidParameter(.sizes, message: "step in '\(part)' must be a whole number >= 1")
        }
        if let refusal = refusal(min(low, high)) { throw .invalidParameter(.sizes, message: refusal) }
        guard low <= high else {
            throw .invalidParameter(.sizes, message: "range '\(part)' runs backwards; write \(high)...\(low)")
        }
        if let refusal = refusal(high) { throw .invalidParameter(.sizes, message: refusal) }
        return Array(stride(from: low, through: high, by: step))
    }
}

/// The sizes `--sizes auto` measures around a prediction P = cores × U × (1 + W/C).
package enum SizeGrid {
    /// Powers of two below 0.75 P show the linear rise; steps of about P/16 from 0.75 P to
    /// 1.25 P resolve the knee to within ~6%; 1.5 P and 2 P (at least 2 × cores) show the plateau.
    package static func auto(prediction: Double, cores: Int) -> [Int] {
        // Sizes past the maximum are dropped below; a larger (or infinite) prediction adds none.
        let p = min(max(prediction, 1), Double(2 * SizeSelection.maximumSize))
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

/// The sizes `--sizes auto` measures in an open-loop sweep, from the load each rate offers:
/// a = rate × (C + W) busy queues on average (Little's law). Below a the pool cannot keep up;
/// the sizes that matter lie just above it, where queueing delay falls from unbounded to small.
package enum OpenLoopSizes {
    /// One rate: a/2 and a (which cannot keep up, to show it), a + 1 and a + 2, then 1.15 a,
    /// 1.3 a, 1.6 a and 2 a. Several rates: sizes that carry 110% of the load at the first rate
    /// and at each quarter of the range, and 1.5 × the largest load, so each size's latency
    /// curve turns up somewhere inside the range.
    package static func auto(rates: [Double], taskSeconds: Double) -> [Int] {
        // Loads past the maximum size add no size (they are dropped below).
        let loads = rates.sorted().map { min($0 * max(taskSeconds, 0), Double(4 * SizeSelection.maximumSize)) }
        guard let largest = loads.last, largest.isFinite else { return [1] }
        var sizes: Set<Int> = []
        if loads.count == 1 {
            let a = largest
            let whole = Int(a.rounded(.down))
            sizes = [whole / 2, whole, whole + 1, whole + 2]
            for factor in [1.15, 1.3, 1.6, 2.0] { sizes.insert(Int((factor * a).rounded(.up))) }
        } else {
            let n = loads.count - 1
            for k in 0...4 { sizes.insert(Int((1.1 * loads[Int((Double(k * n) / 4).rounded())]).rounded(.up))) }
            sizes.insert(Int((1.5 * largest).rounded(.up)))
        }
        var result = sizes.filter { $0 >= 1 && $0 <= SizeSelection.maximumSize }
        // A load under one queue still deserves a curve: fill with powers of two.
        var power = 1
        while result.count < 4 && power <= SizeSelection.maximumSize {
            result.insert(power)
            power *= 2
        }
        return result.sorted()
    }
}

extension SizeSelection: Codable {
    /// `auto`, or the sizes comma-separated: what `--sizes` takes back.
    public var text: String {
        switch self {
        case .auto: return "auto"
        case let .explicit(list): return list.map(String.init).joined(separator: ",")
        }
    }

    /// Written as `text`, in machine.json's plan.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Read from `text`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try SizeSelection.parse(text) } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
