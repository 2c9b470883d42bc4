import Foundation
import PoolSize

// The task this app runs many of: parse a small document (CPU), then wait for storage (IO).
// Here both are stand-ins: a checksum over 64 KiB, then a 3 ms sleep.
let document = [UInt8](repeating: 7, count: 64 * 1024)
@Sendable func handleRequest() {
    var checksum: UInt32 = 0
    for byte in document { checksum = (checksum &* 31) &+ UInt32(byte) }
    if checksum == 1 { print("unlikely") }
    usleep(3_000)
}

// Measure: sweep the task over a few pool sizes (a real run would use more repetitions).
let sizes =
    ProcessInfo.processInfo.environment["SWEEP_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [
        1, 2, 4, 8, 16,
    ]
let result = try Sweep(
    .init(
        name: "handle-request", sizes: .explicit(sizes), repetitions: 1, warmupTrials: 0, qos: .utility,
        trialLength: .milliseconds(150))
) {
    handleRequest()
}.run()

let best: Recommendation
do {
    best = try result.best  // throws, saying why, when no size could be recommended
} catch {
    print(error)
    exit(1)
}
print("W/C at low load: \(String(format: "%.3f", result.lowLoad.waitCPURatio))")
for summary in result.summaries {
    print("  \(summary.poolSize) queues: \(Int(summary.throughput.mean.rounded())) tasks/s")
}
print("recommended queue count: \(best.recommendedQueueCount)")
print(best.reason)
print("for \(result.loadServed)")

// Use: the per-QoS pool with that count for the tier that was measured.
let pools = QueuePoolSet(recommendation: best, label: "example")
let group = DispatchGroup()
for _ in 0..<(4 * pools.count(for: .utility)) {
    group.enter()
    pools.async(qos: .utility) {
        handleRequest(); group.leave()
    }
}
group.wait()
print("ran \(4 * pools.count(for: .utility)) requests on \(pools.count(for: .utility)) utility queues")
