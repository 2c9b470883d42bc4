/// Throughput of the recent windows at each size, while the workload stays the same: what a
/// probe's windows are compared with.
package struct ThroughputHistory: Sendable, Equatable {
    /// Mean and standard error of the last windows at one size.
    package struct Stats: Sendable, Equatable {
        /// Windows it rests on.
        package var count: Int
        /// Mean throughput, tasks/s.
        package var mean: Double
        /// Standard error of the mean (0 for one window).
        package var standardError: Double
    }

    private var windows: [Int: [Double]] = [:]
    /// Windows kept per size.
    package var keep = 8

    /// An empty history.
    package init() {}

    /// Records a window's throughput at `size`.
    package mutating func add(_ throughput: Double, size: Int) {
        var list = windows[size, default: []]
        list.append(throughput)
        if list.count > keep { list.removeFirst(list.count - keep) }
        windows[size] = list
    }

    /// Forgets every size.
    package mutating func reset() { windows.removeAll() }

    /// Windows recorded at `size`.
    package func count(at size: Int) -> Int { windows[size]?.count ?? 0 }

    /// The last `last` windows at `size`; nil when there are none.
    package func stats(at size: Int, last: Int) -> Stats? {
        guard let list = windows[size]?.suffix(max(1, last)), !list.isEmpty else { return nil }
        let n = Double(list.count)
        let mean = list.reduce(0, +) / n
        guard list.count > 1 else { return Stats(count: 1, mean: mean, standardError: 0) }
        let variance = list.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        return Stats(count: list.count, mean: mean, standardError: (variance / n).squareRoot())
    }

    /// The highest mean over the last `last` windows of any size.
    package func best(last: Int) -> Double {
        windows.keys.compactMap { stats(at: $0, last: last)?.mean }.max() ?? 0
    }
}
