import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

@testable import PoolSizeHTTP

/// `ServerTrialMeasurer`'s open-loop trials of `poolsize serve`: the record holds the open
/// loop's figures beside the server's own, and a trial whose arrivals waited in the driver for
/// want of connections is invalid when that could change its verdict, with the figure and the
/// fix. The servers are far from keeping up where that is asserted (50 answers a second
/// offered 200), so no outcome depends on how fast the machine is.
@Suite(.serialized) struct ServerOpenLoopTrialTests {
    static let ms: UInt64 = 1_000_000

    /// An open-loop trial of `size` at `rate` with objective `slo` (µs).
    static func trial(size: Int, rate: Double, slo: Double?) -> TrialRequest {
        var trial = OpenLoopTrial(
            ratePerSecond: rate, process: .poisson, warmupNanoseconds: 100 * ms, windowNanoseconds: 600 * ms,
            tailNanoseconds: 100 * ms)
        trial.latencySLOMicroseconds = slo
        return TrialRequest(
            combination: Combination(pool: .server, qos: .default, primitive: .none), size: size, loop: .open(trial),
            seed: 3)
    }

    /// `poolsize serve --workers N` noting its pid in `pids`.
    static func serve(_ pids: String, cpu: String, delay: String) -> String {
        "sh -c 'echo $$ >> \(pids); exec \(ServerTrialMeasurerTests.poolsize) serve --workers {size} --port {port} --cpu \(cpu) --delay \(delay) --quiet'"
    }

    /// 100/s to 4 workers that each hold a request 5 ms: the record is an open loop's at
    /// 100/s, its latency from the intended arrival at least the 5 ms held, and the server's
    /// CPU (at least the 1 ms burnt per answer), threads and memory are read as in the closed
    /// loop, the driver's CPU beside them.
    @Test func anOpenLoopTrialRecordsTheArrivalsAndTheServersFigures() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try ServerTrialMeasurerTests.measurer(
            Self.serve(scripted.pids, cpu: "1ms", delay: "4ms"), connections: 16)
        defer { measurer.sweepEnded() }
        let metrics = try measurer.measure(Self.trial(size: 4, rate: 100, slo: 50_000), cores: 2, readRatio: 0.5)
            .metrics
        let open = try #require(metrics.openLoop)
        #expect(open.arrivalRate == ArrivalRate(perSecond: 100))
        #expect(open.offeredPerSecond > 0 && open.achievedPerSecond > 0)
        #expect(metrics.latency.p50 >= 5_000 && metrics.execution.p50 >= 5_000)
        #expect(metrics.cpuMicrosecondsPerTask > 900, "C \(metrics.cpuMicrosecondsPerTask) µs")
        #expect(metrics.processThreads >= 4 && metrics.maxRSSKilobytes > 0)
        #expect(metrics.driverCPUMicrosecondsPerRequest > 0)
        #expect(metrics.peakConcurrency >= 1 && metrics.peakConcurrency <= 16)
        #expect(metrics.errors == 0)
        #expect(scripted.recordedPIDs.count == 1)
        #expect(scripted.leftovers.isEmpty)
    }

    /// One worker holding each request 20 ms answers 50 a second; offered 200 with one
    /// connection, the arrivals wait in the driver, and the objective of 50 ms needs 200 × 2 ×
    /// 50 ms = 20 connections before a wait there cannot change the verdict: the trial is
    /// invalid, saying so. With 20 connections it is valid, and not stable.
    @Test(arguments: [1, 20]) func arrivalsHeldInTheDriverForWantOfConnections(connections: Int) throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try ServerTrialMeasurerTests.measurer(
            Self.serve(scripted.pids, cpu: "0ms", delay: "20ms"), connections: connections)
        defer { measurer.sweepEnded() }
        let metrics = try measurer.measure(Self.trial(size: 1, rate: 200, slo: 50_000), cores: 2, readRatio: 0.5)
            .metrics
        #expect(metrics.openLoop?.stable == false)
        if connections == 1 {
            let reason = try #require(metrics.invalidReason)
            #expect(reason.contains(" arrivals found all 1 of `connections` busy and waited in the driver (up to "))
            #expect(
                reason.hasSuffix(
                    "so the driver, not the server, held the queue; pass `connections` 20 or more (the rate × twice the objective of 50.0 ms, and at least the size)"
                ), "\(reason)")
        } else {
            #expect(metrics.invalidReason == nil, "\(metrics.invalidReason ?? "")")
        }
        #expect(scripted.leftovers.isEmpty)
    }

    /// The connections an open loop needs: the size at least, and the rate × twice the
    /// objective when there is one.
    @Test func theConnectionsAnOpenLoopNeeds() {
        #expect(
            ServerTrialMeasurer.neededConnections(ratePerSecond: 400, latencySLOMicroseconds: 50_000, size: 8) == 40)
        #expect(
            ServerTrialMeasurer.neededConnections(ratePerSecond: 400, latencySLOMicroseconds: 50_000, size: 64) == 64)
        #expect(ServerTrialMeasurer.neededConnections(ratePerSecond: 400, latencySLOMicroseconds: nil, size: 8) == 8)
        #expect(
            ServerTrialMeasurer.neededConnections(ratePerSecond: 1e6, latencySLOMicroseconds: 1e9, size: 1) == 10_000)
    }
}
