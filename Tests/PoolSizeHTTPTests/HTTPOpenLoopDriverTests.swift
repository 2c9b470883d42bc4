import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

@testable import PoolSizeHTTP

/// The driver's open loop against real servers on 127.0.0.1: which arrivals a window holds
/// (the seeded schedule's, counted exactly), that each starts on a connection opened before the
/// arrivals, and that latency counts from the intended time, so a server that stalls shows in
/// every request queued behind it. Every figure asserted is a count or a lower bound that a
/// slower machine only raises.
@Suite(.serialized) struct HTTPOpenLoopDriverTests {
    static let ms: UInt64 = 1_000_000

    /// The schedule's arrivals in [warm-up, warm-up + window) and before the end, from offsets
    /// alone: what the in-process open loop draws from the same seed.
    static func scheduled(_ trial: OpenLoopTrial, seed: UInt64) -> (inWindow: Int, total: Int) {
        var schedule = ArrivalSchedule(trial, seed: seed, start: 0)
        var inWindow = 0, total = 0
        while true {
            let at = schedule.next()
            guard at < trial.totalNanoseconds else { return (inWindow, total) }
            total += 1
            if at >= trial.warmupNanoseconds && at < trial.warmupNanoseconds + trial.windowNanoseconds { inWindow += 1 }
        }
    }

    /// Poisson arrivals at 300/s from seed 17: the window holds exactly the schedule's
    /// arrivals, each with a latency from its intended time of at least the server's 1 ms,
    /// a backlog and a dispatch lag; the server accepted only the 8 connections opened before
    /// the arrivals, every arrival taking one of them kept alive, never more than 8 at once.
    @Test func theWindowHoldsTheSeededSchedulesArrivalsOnKeptAliveConnections() throws {
        let server = try LoadServer(host: "127.0.0.1", port: 0, threads: 2, behaviour: .init(delayMicroseconds: 1_000))
        defer { server.stop() }
        let trial = OpenLoopTrial(
            ratePerSecond: 300, process: .poisson, warmupNanoseconds: 100 * Self.ms, windowNanoseconds: 500 * Self.ms,
            tailNanoseconds: 100 * Self.ms)
        let seed = ArrivalSchedule.seed(forTrial: 17)
        let expected = Self.scheduled(trial, seed: seed)
        let driver = try HTTPLoadDriver(target: HTTPTarget(url: server.url), connections: 8)
        let result = try driver.runOpenLoop(trial, seed: seed)
        let raw = result.raw
        #expect(raw.arrivalsInWindow == expected.inWindow)
        #expect(raw.latencies.count == expected.inWindow)
        #expect(raw.backlog.count == expected.inWindow && raw.dispatchLags.count == expected.inWindow)
        #expect(raw.ratePerSecond == 300)
        #expect(raw.latencies.allSatisfy { $0 >= 1_000_000 })
        #expect(server.counters.accepted.load(ordering: .relaxed) == 8)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) <= 8)
        #expect(result.peakInFlight <= 8)
        // The 8 opening requests and at most every arrival before the end.
        #expect(server.counters.answered.load(ordering: .relaxed) <= 8 + expected.total)
        #expect(result.load.failures == 0 && result.load.firstFailure == nil)
        #expect(result.load.latency.p50 >= 1_000)
        #expect(result.load.driverCPUMicroseconds > 0)
        #expect(result.serviceSeconds >= 0.001)
    }

    /// A server that holds one request 300 ms while it serves one at a time: every arrival
    /// intended during the stall waits for its end, and counts that wait from its intended time,
    /// whether it waited at the server (16 connections) or, with one connection, in the driver,
    /// where it is counted as having waited. At 100/s evenly spaced, at least 14 arrivals are
    /// intended in the stall's first 150 ms, each finishing at least 150 ms later.
    @Test(arguments: [1, 16]) func aStallShowsInTheLatencyOfEveryRequestQueuedBehindIt(connections: Int) throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        // The readiness probe, the opening requests, then the 50th arrival (at 0.5 s, in the
        // window from 0.1 s to 1.6 s) is the one held.
        let held = 1 + connections + 50
        let port = try ServerProcess.freeLoopbackPort()
        let process = try ServerProcess(arguments: [
            "python3", "-u", scripted.script, "stall", String(held), String(port), scripted.pids,
        ])
        defer { _ = process.stop(graceSeconds: 1) }
        let target = try HTTPTarget(url: "http://127.0.0.1:\(port)/")
        let probe = try HTTPReadinessProbe(target: target)
        try process.waitUntilReady(timeoutSeconds: 30) { probe.check() }
        let trial = OpenLoopTrial(
            ratePerSecond: 100, process: .uniform, warmupNanoseconds: 100 * Self.ms,
            windowNanoseconds: 1_500 * Self.ms, tailNanoseconds: 500 * Self.ms)
        let result = try HTTPLoadDriver(target: target, connections: connections).runOpenLoop(trial, seed: 1)
        let latencies = result.raw.latencies
        #expect(result.raw.arrivalsInWindow == 150)
        #expect((latencies.max() ?? 0) >= 300 * Self.ms)
        let behind = latencies.filter { $0 >= 150 * Self.ms }.count
        #expect(behind >= 14, "\(behind) arrivals waited 150 ms or more")
        if connections == 1 {
            // The one connection was held through the stall: the arrivals behind it waited in
            // the driver, and are counted so.
            #expect(result.waitedForConnection >= 14)
            #expect(result.longestConnectionWaitNanoseconds >= 150 * Self.ms)
        }
        _ = process.stop(graceSeconds: 1)
        #expect(scripted.leftovers.isEmpty)
    }
}
