import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

@testable import PoolSizeHTTP

/// The event-driven driver against a real `LoadServer` on 127.0.0.1 (port 0: a free one). Each
/// test counts what the driver and the server did, not how fast: a server delay makes every
/// request wait long enough that the counts follow from the delay alone.
@Suite(.serialized) struct HTTPLoadDriverTests {
    func server(delay: Double, threads: Int = 1) throws -> LoadServer {
        try LoadServer(
            host: "127.0.0.1", port: 0, threads: threads, behaviour: .init(delayMicroseconds: delay))
    }

    func run(_ url: String, connections: Int, warmupMs: UInt64 = 0, durationMs: UInt64) throws -> HTTPLoadResult {
        let driver = try HTTPLoadDriver(target: HTTPTarget(url: url), connections: connections)
        return try driver.run(warmupNanoseconds: warmupMs * 1_000_000, durationNanoseconds: durationMs * 1_000_000)
    }

    /// Four connections keep exactly four requests at the server at once, never more, each on
    /// its own kept-alive connection; every latency is at least the server's delay, the
    /// percentiles are ordered, and what the driver counts the server answered.
    @Test func keepsExactlyMInFlightOnMConnections() throws {
        let server = try server(delay: 50_000)
        defer { server.stop() }
        let result = try run(server.url, connections: 4, warmupMs: 100, durationMs: 600)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) == 4)
        #expect(server.counters.accepted.load(ordering: .relaxed) == 4)
        #expect(result.connections == 4)
        #expect(result.failures == 0)
        #expect(result.firstFailure == nil)
        #expect(result.requests >= 4)
        #expect(result.requests <= server.counters.answered.load(ordering: .relaxed))
        let latency = result.latency
        #expect(latency.p50 >= 50_000)
        #expect(latency.p50 <= latency.p90 && latency.p90 <= latency.p99)
        #expect(latency.p99 <= latency.p999 && latency.p999 <= latency.max)
        #expect(result.windowSeconds >= 0.6)
        #expect(result.throughputPerSecond == Double(result.requests) / result.windowSeconds)
        #expect(result.driverCPUMicroseconds > 0)
        #expect(
            result.driverCPUMicrosecondsPerRequest == result.driverCPUMicroseconds / Double(result.requests))
    }

    /// One connection: one request at a time, all on one connection.
    @Test func oneConnectionIsOneRequestAtATime() throws {
        let server = try server(delay: 20_000, threads: 2)
        defer { server.stop() }
        let result = try run(server.url, connections: 1, durationMs: 200)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) == 1)
        #expect(server.counters.accepted.load(ordering: .relaxed) == 1)
        #expect(result.requests >= 1 && result.failures == 0)
    }

    /// Answers of 404 and 500 are failures, never requests nor throughput, and the first says
    /// what came.
    @Test(arguments: [(404, "answered 404 Not Found"), (500, "answered 500 Internal Server Error")])
    func errorStatusesAreFailures(status: Int, first: String) throws {
        let server = try server(delay: 10_000)
        defer { server.stop() }
        let result = try run(server.url + "status/\(status)", connections: 4, durationMs: 200)
        #expect(result.requests == 0)
        #expect(result.throughputPerSecond == 0)
        #expect(result.failures >= 4)
        #expect(result.firstFailure == first)
        #expect(result.latency == LatencyPercentiles())
        #expect(server.counters.failed.load(ordering: .relaxed) >= result.failures)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) <= 4)
    }

    /// A port where nothing listens: every transfer fails to connect, none counts.
    @Test func aRefusedConnectionIsAFailure() throws {
        let closed = try server(delay: 0)
        let url = closed.url
        closed.stop()
        let result = try run(url, connections: 2, durationMs: 100)
        #expect(result.requests == 0)
        #expect(result.failures >= 1)
        #expect(result.firstFailure?.hasPrefix("failed: ") == true)
    }

    /// Requests the server holds for 10 s do not hold the driver: it returns at the end of its
    /// window with nothing finished, and the server sees the connections closed. (The time
    /// limit only guards against a hang: the driver would otherwise wait the whole 10 s.)
    @Test func stopsOnTimeWithRequestsInFlight() throws {
        let server = try server(delay: 10_000_000)
        defer { server.stop() }
        let start = Date()
        let result = try run(server.url, connections: 3, durationMs: 200)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(result.requests == 0 && result.failures == 0)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) == 3)
        #expect(server.counters.answered.load(ordering: .relaxed) == 0)
        let deadline = Date().addingTimeInterval(5)
        while server.counters.open.load(ordering: .relaxed) > 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(server.counters.open.load(ordering: .relaxed) == 0)
    }

    /// With a stop rule the window closes once its answers' throughput is known: under a rule no
    /// steady server can miss (±49% over 10 answers) at the first judgement past its shortest
    /// window (0.1 s), long before its 10 s, with the margin it was known to; under one it cannot
    /// meet (more answers than any window holds) at its whole length, `longest`, with the margin
    /// it reached; without one at its length, `planned`.
    @Test func aWindowWithAStopRuleEndsOnceItsThroughputIsKnown() throws {
        let server = try server(delay: 2_000, threads: 2)
        defer { server.stop() }
        func driven(_ rule: TrialStopRule?, durationMs: UInt64) throws -> HTTPLoadResult {
            let driver = try HTTPLoadDriver(target: HTTPTarget(url: server.url), connections: 4)
            return try driver.run(warmupNanoseconds: 0, durationNanoseconds: durationMs * 1_000_000, stop: rule)
        }
        let loose = TrialStopRule(margin: 0.49, taskNanoseconds: 2_000_000, minimumCompletions: 10)
        let known = try driven(loose, durationMs: 10_000)
        #expect(known.windowEnded == .known)
        #expect(known.windowSeconds >= 0.1 && known.windowSeconds < 10, "\(known.windowSeconds)")
        #expect((known.throughputMargin ?? 1) <= 0.49)
        let never = TrialStopRule(margin: 0.49, taskNanoseconds: 2_000_000, minimumCompletions: .max)
        let longest = try driven(never, durationMs: 300)
        #expect(longest.windowEnded == .longest)
        #expect(longest.windowSeconds >= 0.3)
        #expect(longest.throughputMargin != nil)
        let fixed = try driven(nil, durationMs: 300)
        #expect(fixed.windowEnded == .planned)
        #expect(fixed.windowSeconds >= 0.3)
    }

    /// A checkpoint that takes longer than the interval (as a starved thread's would) leaves
    /// the next one's deadline in the past: the driver goes on, the checkpoint after the late one
    /// counts from it, and the run ends with every checkpoint reported in order. (Its wait until
    /// a deadline already past had been an unsigned subtraction below zero, a trap.)
    @Test func aCheckpointLongerThanItsIntervalDoesNotStopTheDriver() throws {
        let server = try server(delay: 1_000)
        defer { server.stop() }
        let driver = try HTTPLoadDriver(target: HTTPTarget(url: server.url), connections: 2)
        var instants: [UInt64] = []
        let result = try driver.run(
            warmupNanoseconds: 0, durationNanoseconds: 300_000_000, checkpointNanoseconds: 10_000_000
        ) { point in
            instants.append(point.nanoseconds)
            if instants.count == 2 { Thread.sleep(forTimeInterval: 0.045) }
        }
        #expect(result.requests > 0)
        #expect(instants.count >= 5, "\(instants)")
        #expect(instants == instants.sorted(), "\(instants)")
        // The checkpoint due during the stall comes once it ends; the one after it a whole
        // interval later, not at once for each interval the stall spanned.
        #expect(instants[2] >= instants[1] + 45_000_000, "\(instants)")
        #expect(instants[3] >= instants[2] + 10_000_000, "\(instants)")
    }

    /// The driver refuses a count outside 1…10000, naming the setting.
    @Test(arguments: [0, -1, 10_001])
    func aBadConnectionCountIsRefused(count: Int) throws {
        #expect(
            throws: PoolSizeError.invalidParameter(
                .connections, message: "must be 1 to 10000 requests in flight at once, got \(count)")
        ) {
            _ = try HTTPLoadDriver(target: HTTPTarget(url: "http://127.0.0.1:1/"), connections: count)
        }
    }

    /// A port nobody listens on: every connection is refused at once, and each handle waits
    /// `retryDelayNanoseconds` before it tries again, so one connection fails at most once per
    /// millisecond of the window (restarting at once failed some 15 000 times in 300 ms).
    @Test func refusedConnectionsWaitBeforeTryingAgain() throws {
        let result = try run("http://127.0.0.1:1/", connections: 1, durationMs: 300)
        #expect(result.requests == 0)
        #expect(result.failures >= 1)
        #expect(Double(result.failures) <= result.windowSeconds * 1_000 + 1, "\(result.failures) failures")
    }

    /// A readiness probe leaves no connection open behind it: a kept-alive one would hold a
    /// worker of a thread-per-connection server through the trial.
    @Test func theReadinessProbeClosesItsConnection() throws {
        let server = try server(delay: 0)
        defer { server.stop() }
        let probe = try HTTPReadinessProbe(target: HTTPTarget(url: server.url))
        #expect(probe.check().ready)
        var open = server.counters.open.load(ordering: .relaxed)
        for _ in 0..<200 where open != 0 {
            usleep(10_000)
            open = server.counters.open.load(ordering: .relaxed)
        }
        #expect(open == 0)
        #expect(server.counters.accepted.load(ordering: .relaxed) == 1)
    }
}
