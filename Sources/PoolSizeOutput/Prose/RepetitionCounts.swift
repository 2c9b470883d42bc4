import PoolSizeAnalysis

/// How many repetitions a run measured at each size, against how many it asked for: an adaptive
/// search repeats only the sizes its decisions rest on, so "5 per size" would overstate what
/// most sizes have. Every output that states the repetitions (the report's machine table, the
/// chart's label, the caveats) says it through this.
package struct RepetitionCounts: Equatable, Sendable {
    /// Repetitions the plan asked for per size; nil when the run does not record a plan.
    package let asked: Int?
    /// For each repetition count measured, the number of sizes (per combination) that have it.
    package let sizesByCount: [Int: Int]

    /// The counts of `summaries`, one per combination and size.
    package init(asked: Int?, summaries: [ConfigurationSummary]) {
        self.asked = asked
        sizesByCount = Dictionary(grouping: summaries, by: \.throughput.count).mapValues(\.count)
    }

    /// Sizes measured in all.
    package var sizes: Int { sizesByCount.values.reduce(0, +) }
    /// Sizes measured once: no spread to print or test.
    package var measuredOnce: Int { sizesByCount[1] ?? 0 }
    /// The one count every size has, if they agree.
    package var uniform: Int? { sizesByCount.count == 1 ? sizesByCount.keys.first : nil }

    /// `5 per size` when every size has what was asked; otherwise `5 asked per size, measured
    /// 5 at 5 sizes and 1 at 10` (most repetitions first).
    package var phrase: String {
        if let uniform, asked == nil || asked == uniform { return "\(uniform) per size" }
        let measured = sizesByCount.sorted { $0.key > $1.key }.map { count, sizes in
            "\(count) at \(sizes) size\(sizes == 1 ? "" : "s")"
        }
        let list =
            measured.count > 1
            ? measured.dropLast().joined(separator: ", ") + " and " + measured.last! : measured.joined()
        return (asked.map { "\($0) asked per size, " } ?? "") + "measured " + list
    }

    /// The chart's word for its bars: `of 5 reps`, or `of 1–5 reps per size`.
    package var chartPhrase: String {
        if let uniform { return "of \(uniform) reps" }
        let counts = sizesByCount.keys.sorted()
        return "of \(counts.first!)–\(counts.last!) reps per size"
    }
}
