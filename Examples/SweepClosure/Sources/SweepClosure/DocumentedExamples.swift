import Foundation
import PoolSize

// The examples of docs/guide/library.md and the DocC catalog (Sources/PoolSize/PoolSize.docc),
// compiled here against the public API only, so a demoted type or a renamed parameter breaks
// the test script's build of this package instead of the documentation. Never called.
enum DocumentedExamples {
    static func sweepAndUse() throws {
        let result = try Sweep(.init(name: "handle-request", sizes: .explicit([1, 2, 4, 8, 16]), repetitions: 3)) {
            handleRequest()
        }.run()
        print(try result.queueCount)
        let best = try result.best
        print(best.recommendedQueueCount, best.kneeQueueCount ?? 0, best.formulaQueueCountExact)
        if let curve = best.curve { print(curve.peakQueueCount, curve.peakThroughputPerSecond, curve.usl as Any) }
        print(best.reason)
        for summary in result.summaries {
            print(summary.poolSize, summary.throughput.mean, summary.throughput.confidenceInterval95 as Any)
        }
        let pools = QueuePoolSet(recommendation: best)
        pools.async(qos: .default) { handleRequest() }
        _ = try QueuePoolSet(recommendationAt: URL(fileURLWithPath: "results/run"))
    }

    static func configuration() throws {
        var configuration = Sweep.Configuration(name: "handle-request", sizes: .explicit([1, 2, 4, 8, 16, 32]))
        configuration.repetitions = 3
        configuration.trialLength = .milliseconds(200)
        _ = try Sweep(configuration) { handleRequest() }.run()
    }

    static func fromAsyncCode() async throws {
        _ = try await Sweep(.init(name: "handle-request")) { handleRequest() }.run()
    }

    static func openLoop() throws {
        let arrival = ArrivalPlan(
            rates: [800], process: .poisson, latencyObjective: .milliseconds(50), sloPercentile: 99)
        let result = try Sweep(
            .init(name: "handle-request", sizes: .explicit([8, 12, 16, 24, 32]), load: .open(arrival))
        ) {
            handleRequest()
        }.run()
        let best = try result.best
        print(best.recommendedQueueCount, best.sizing.reachedItsTarget, best.reason)
        for verdict in best.latency?.sizeVerdicts ?? [] {
            print(verdict.poolSize, verdict.stable, verdict.percentileMicroseconds)
        }
    }

    struct Requests: WorkloadSource {
        var declaredTaskNanoseconds: UInt64? { nil }
        var supportsCriticalSections: Bool { false }
        func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload { Handler() }
    }

    struct Handler: Workload {
        func run(task index: UInt64) { handleRequest() }
    }

    static func upload(_ file: URL) { handleRequest() }

    static func adaptivePool(files: [URL]) {
        // Between 2 and 64 serial queues of the utility tier, sized by what the uploads measure.
        let uploads = AdaptiveQueuePool(minimum: 2, maximum: 64, qos: .utility)
        for file in files {
            uploads.submit { upload(file) }  // blocking IO: the pool grows toward cores × (1 + W/C)
        }
        uploads.shutdown()  // waits for every upload, resizing while they run
        print(uploads.size)  // the queue count it settled on
        print(uploads.status)  // C, W/C, the formula's size, each change and why
        uploads.waitUntilIdle()
        let status = uploads.status
        print(status.cpuSecondsPerTask ?? 0, status.waitCPURatio ?? 0, status.formulaSize ?? 0)
        for change in status.changes { print(change.seconds, change.size, change.reason, change.throughputPerSecond) }
    }

    static func ownSource() throws {
        var sweep = Sweep(Sweep.Configuration(name: "handle-request"), source: Requests())
        sweep.pools = SystemPoolFactory()
        _ = try sweep.run()
    }
}
