import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

/// The low-load phase stops at the precision its target asks (`SweepTarget.lowLoadRelativeError`):
/// on the same scripted slices, a server's phase (2%) ends at its 40-slice minimum, while
/// poolsize's own pools (1%) run rounds until 1% is reached; each stops at the first round that
/// gets there.
@Suite struct LowLoadPrecisionTests {
    /// Low-load rounds of 10 slices each, C 1 ms and W 9 ms ± 0.7 ms in turn (a slice's W/C
    /// varies by about 8%); every other trial a flat curve.
    final class Slices: TrialMeasuring, @unchecked Sendable {
        private(set) var rounds = 0

        func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
            metrics: TrialMetrics, integrity: IntegrityReport?
        ) {
            var metrics = TrialMetrics(
                windowSeconds: 0.5, throughputPerSecond: request.lowLoad ? 20 : 500, cpuMicrosecondsPerTask: 1000,
                waitMicrosecondsPerTask: 9000, utilization: 0.5, peakConcurrency: request.size,
                threads: request.size)
            if request.lowLoad {
                rounds += 1
                metrics.perTaskCPUMicroseconds = Array(repeating: 1000, count: 10)
                metrics.perTaskWaitMicroseconds = (0..<10).map { 9000 + ($0 % 2 == 0 ? 700 : -700) }
                metrics.perTaskWaitCPURatios = metrics.perTaskWaitMicroseconds.map { $0 / 1000 }
            }
            return (metrics, nil)
        }
    }

    static func lowLoad(_ target: SweepTarget) throws -> (rounds: Int, estimate: LowLoadEstimate) {
        var plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0,
            cores: 2, busyRetries: 0)
        plan.search = .grid
        plan.target = target
        let slices = Slices()
        let result = try SweepRunner(measurer: slices, declaredTaskNanoseconds: nil).run(
            plan, observer: AdaptiveSweepTests.SearchObserver())
        return (slices.rounds, result.lowLoad)
    }

    @Test func aServersPhaseStopsAtTwoPercentAndOwnPoolsAtOne() throws {
        let server = try Self.lowLoad(
            .server(
                ServerSetup(
                    command: "poolsize serve --workers '{size}' --port '{port}'", url: "http://127.0.0.1:{port}/",
                    connections: 64, readyTimeoutSeconds: 30)))
        let own = try Self.lowLoad(.inProcess)
        let serverError = try #require(server.estimate.ratio?.relativeStandardError)
        let ownError = try #require(own.estimate.ratio?.relativeStandardError)
        // 40 slices is the phase's least; there W/C is known to about 7.8% / √40 = 1.2%.
        #expect(server.rounds == 4 && server.estimate.tasks == 40, "\(server.rounds)")
        #expect(serverError <= 0.02 && serverError > 0.01, "\(serverError)")
        #expect(own.rounds > server.rounds && ownError <= 0.01, "\(own.rounds) rounds, \(ownError)")
        // The rounds before the last were not yet at 1%: no round more than needed is run.
        let slices = (own.rounds - 1) * 10
        let before = LowLoadEstimate(
            waitMicroseconds: (0..<slices).map { 9000 + ($0 % 2 == 0 ? 700 : -700) },
            cpuMicroseconds: Array(repeating: 1000, count: slices), seconds: 0)
        #expect(try #require(before.ratio?.relativeStandardError) > 0.01)
        #expect(abs(server.estimate.waitCPURatio - 9) < 1e-9 && abs(own.estimate.waitCPURatio - 9) < 1e-9)
    }
}
