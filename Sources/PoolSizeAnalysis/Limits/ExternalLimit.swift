import PoolSizeModel

/// Whether something outside the pool — the server a task calls, the device it writes to —
/// is what stops throughput from rising, so that adding queues cannot help. Two ways to know:
/// a `poolsize serve` target states its threads and CPU per request (its capacity is then
/// known), and for any target the curve itself tells: throughput flattens while this process
/// leaves cores idle and each task takes longer and longer.
package enum ExternalLimit {
    /// Below this share of the cores busy, the pool's own CPU is not what stops it.
    package static let idleUtilization = 0.75
    /// A task this many times slower than at the smallest size is waiting on something that
    /// has run out of capacity.
    package static let slowdown = 1.5
    /// Throughput within this share of a known server capacity is "at" that capacity.
    package static let atCapacity = 0.85

    /// What a `poolsize serve` target said of itself in its `X-Poolsize-Server` header.
    package struct ServerBehaviour: Equatable, Sendable {
        /// The server's threads.
        package var threads: Int
        /// CPU per request, µs.
        package var cpuMicroseconds: Double
        /// Delay per request, µs.
        package var delayMicroseconds: Double

        /// Parses `threads=2 cpu_us=1000 delay_us=10000 jitter=none`; nil when a field is missing.
        package init?(header: String) {
            var fields: [String: String] = [:]
            for pair in header.split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let threads = fields["threads"].flatMap(Int.init), threads > 0,
                let cpu = fields["cpu_us"].flatMap(Double.init), cpu >= 0, cpu.isFinite,
                let delay = fields["delay_us"].flatMap(Double.init), delay >= 0, delay.isFinite
            else { return nil }
            self.threads = threads
            self.cpuMicroseconds = cpu
            self.delayMicroseconds = delay
        }

        /// Requests a second the server can answer on `cores` cores; nil when it burns no CPU
        /// (its delay holds no thread, so it sets no limit of its own).
        package func capacityPerSecond(cores: Int) -> Double? {
            guard cpuMicroseconds > 0 else { return nil }
            return Double(min(threads, cores)) / (cpuMicroseconds / 1e6)
        }
    }

    /// The finding for one configuration's curve (`summaries` of one combination), or nil when
    /// nothing outside the pool shows. `cores` are the server's when it runs elsewhere; for a
    /// server on this machine, this machine's.
    /// `knee`: the recommendation's knee, when there is one, so both name the same size; else
    /// the smallest size within 5% of the peak.
    package static func finding(
        _ summaries: [ConfigurationSummary], cores: Int, server: ServerBehaviour?, knee kneeSize: Int? = nil
    ) -> String? {
        let curve = summaries.filter { $0.throughput.mean.isFinite }.sorted { $0.poolSize < $1.poolSize }
        guard let peak = curve.max(by: { $0.throughput.mean < $1.throughput.mean }), peak.throughput.mean > 0 else {
            return nil
        }
        if let server, let capacity = server.capacityPerSecond(cores: cores),
            peak.throughput.mean >= atCapacity * capacity
        {
            let knee =
                curve.first { $0.poolSize == kneeSize } ?? curve.first {
                    $0.throughput.mean >= 0.95 * peak.throughput.mean
                } ?? peak
            return
                "**The server limits it, not the pool**: the `poolsize serve` target answers at most min(\(server.threads) threads, \(cores) cores) ÷ \(UnitFormat.duration(microseconds: server.cpuMicroseconds)) of CPU per request = \(UnitFormat.rate(capacity.rounded())), and throughput reached \(UnitFormat.rate(peak.throughput.mean.rounded())) (\(UnitFormat.wholePercent(peak.throughput.mean / capacity)) of it) from N = \(knee.poolSize). More queues here cannot raise it; the server needs more threads or less CPU per request."
        }
        guard curve.count >= 3, let first = curve.first, peak.poolSize > first.poolSize,
            peak.utilization < idleUtilization
        else { return nil }
        func wall(_ s: ConfigurationSummary) -> Double { s.cpuMicrosecondsPerTask * (1 + s.waitCPURatio) }
        guard wall(first) > 0, wall(peak).isFinite, wall(peak) >= slowdown * wall(first) else { return nil }
        let knee =
            curve.first { $0.poolSize == kneeSize } ?? curve.first { $0.throughput.mean >= 0.95 * peak.throughput.mean }
            ?? peak
        // A knee well below its peak ends a slow creep (`Knee.Basis.flattened`): name both levels.
        let level =
            peak.throughput.mean > 1.05 * knee.throughput.mean
            ? "\(UnitFormat.rate(knee.throughput.mean.rounded())) there, creeping to \(UnitFormat.rate(peak.throughput.mean.rounded())) at N = \(peak.poolSize)"
            : "\(UnitFormat.rate(peak.throughput.mean.rounded())) at most"
        return
            "**Something outside the pool limits it**: throughput stops rising at N = \(knee.poolSize) (\(level)) while this process kept only \(UnitFormat.wholePercent(peak.utilization)) of the cores busy, and a task took \(UnitFormat.duration(microseconds: wall(peak))) at N = \(peak.poolSize) against \(UnitFormat.duration(microseconds: wall(first))) at N = \(first.poolSize): the server, device or network the tasks wait on has run out of capacity, not the pool. More queues only lengthen the wait."
    }
}
