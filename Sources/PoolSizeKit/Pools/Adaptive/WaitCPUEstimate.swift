/// C and W/C of the workload an adaptive pool is running, from the sampled tasks of its recent
/// windows (ratio of sums, as the low-load estimate is), with the run-queue time left out of W.
///
/// Recent windows are kept until they hold `targetSamples` tasks. When the two newest windows
/// disagree with older ones at the same size by more than the regime factor (the backend slowed
/// down 3×, a cache warmed), the older ones are dropped: the estimate follows a step within two
/// windows instead of averaging it away. Only windows at one size are compared: where a lock or
/// a server outside the pool limits the curve, W grows with the size, which is no new workload.
package struct WaitCPUEstimate: Sendable, Equatable {
    struct Sums: Sendable, Equatable {
        var size = 0
        var tasks = 0
        var cpu = 0.0
        var wait = 0.0

        mutating func add(_ other: Sums) {
            tasks += other.tasks
            cpu += other.cpu
            wait += other.wait
        }

        var cpuPerTask: Double? { tasks > 0 ? cpu / Double(tasks) : nil }
        var factor: Double? { cpu > 0 ? 1 + wait / cpu : nil }
    }

    private var windows: [Sums] = []
    /// Tasks the estimate tries to rest on.
    package var targetSamples = 64
    /// Most windows kept.
    package var maximumWindows = 12

    /// An empty estimate.
    package init() {}

    /// Adds a window's samples; true when they show a new workload (the older windows are then
    /// dropped). `minimumSamples` is what the newest windows need before they can say so.
    package mutating func add(_ window: AdaptiveWindow, size: Int, regimeFactor: Double, minimumSamples: Int) -> Bool {
        guard window.sampledTasks > 0 else { return false }
        windows.append(Sums(size: size, tasks: window.sampledTasks, cpu: window.cpuSeconds, wait: window.waitSeconds))
        var changed = false
        if windows.count >= 3, windows[windows.count - 2].size == size {
            var recent = Sums()
            var older = Sums()
            for sums in windows.suffix(2) { recent.add(sums) }
            for sums in windows.dropLast(2) where sums.size == size { older.add(sums) }
            if recent.tasks >= minimumSamples, older.tasks >= minimumSamples,
                Self.differ(recent.cpuPerTask, older.cpuPerTask, by: regimeFactor)
                    || Self.differ(recent.factor, older.factor, by: regimeFactor)
            {
                windows.removeFirst(windows.count - 2)
                changed = true
            }
        }
        // Keep the newest windows that reach the target, and never more than the cap.
        var tasks = 0
        var keep = 0
        for sums in windows.reversed() {
            keep += 1
            tasks += sums.tasks
            if tasks >= targetSamples { break }
        }
        windows.removeFirst(windows.count - min(keep, maximumWindows))
        return changed
    }

    /// Forgets every sample.
    package mutating func reset() { windows.removeAll() }

    private var sums: Sums { windows.reduce(into: Sums()) { $0.add($1) } }

    /// Sampled tasks the estimate rests on.
    package var tasks: Int { sums.tasks }
    /// W/C (run-queue time excluded); nil before any CPU was sampled.
    package var waitCPURatio: Double? { sums.factor.map { $0 - 1 } }
    /// Mean C per task, seconds.
    package var cpuSecondsPerTask: Double? { sums.cpuPerTask }

    static func differ(_ a: Double?, _ b: Double?, by factor: Double) -> Bool {
        guard let a, let b, a > 0, b > 0 else { return false }
        return a > b * factor || b > a * factor
    }
}
