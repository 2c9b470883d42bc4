import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing
@testable import PoolSizeHTTP

/// The HTTP workload against a real `LoadServer` on 127.0.0.1 (port 0: a free one).
@Suite(.serialized) struct HTTPSourceTests {
    func server(cpu: Double = 0, delay: Double = 0, threads: Int = 1) throws -> LoadServer {
        try LoadServer(host: "127.0.0.1", port: 0, threads: threads, behaviour: .init(cpuMicroseconds: cpu, delayMicroseconds: delay))
    }

    func source(_ url: String, timeout: Double = 10) throws -> HTTPSource {
        try HTTPSource(target: HTTPTarget(url: url), timeoutSeconds: timeout, maximumConnections: 64, loopThreads: 1)
    }

    /// Waits (bounded) until `condition` holds; the server sees a close a moment after the client makes it.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return condition()
    }

    /// A request that waits 20 ms at the server takes at least 20 ms of wall time, of which
    /// the pool thread's CPU is a small part; it succeeds, and the server's header is kept.
    @Test func aRequestIsMeasuredAndSucceeds() throws {
        let server = try server(delay: 20_000)
        defer { server.stop() }
        let http = try source(server.url)
        defer { http.shutdown() }
        let workload = http.workload(seed: 1, criticalSection: nil)
        let clocks = SystemClocks()
        let start = clocks.wallNanoseconds()
        let outcome = workload.execute(task: 0)
        let wall = clocks.wallNanoseconds() - start
        #expect(outcome.failure == nil)
        #expect(wall >= 20_000_000)
        #expect(http.observedServer == "threads=1 cpu_us=0 delay_us=20000 jitter=none")
        #expect(server.counters.answered.load(ordering: .relaxed) == 1)
    }

    /// One worker making requests one after another uses one connection throughout; four
    /// workers at once use at most four.
    @Test func connectionsAreReused() throws {
        let server = try server()
        defer { server.stop() }
        let http = try source(server.url)
        defer { http.shutdown() }
        let workload = http.workload(seed: 1, criticalSection: nil)
        for task in 0..<20 { #expect(workload.execute(task: UInt64(task)).failure == nil) }
        #expect(server.counters.accepted.load(ordering: .relaxed) == 1)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for task in 0..<10 { _ = workload.execute(task: UInt64(100 * worker + task)) }
        }
        #expect(server.counters.answered.load(ordering: .relaxed) == 60)
        #expect(server.counters.accepted.load(ordering: .relaxed) <= 4)
    }

    /// After the sweep's shutdown no connection is left open at the server.
    @Test func shutdownClosesEveryConnection() throws {
        let server = try server(delay: 5_000)
        defer { server.stop() }
        let http = try source(server.url)
        let workload = http.workload(seed: 1, criticalSection: nil)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in _ = workload.execute(task: UInt64(worker)) }
        #expect(server.counters.open.load(ordering: .relaxed) >= 1)
        http.shutdown()
        #expect(eventually { server.counters.open.load(ordering: .relaxed) == 0 })
        #expect(workload.execute(task: 9).failure == "GET \(server.url) was not sent: the client has shut down")
    }

    @Test func anErrorStatusIsAFailedTask() throws {
        let server = try server()
        defer { server.stop() }
        let http = try source(server.url + "status/503")
        defer { http.shutdown() }
        let outcome = http.workload(seed: 1, criticalSection: nil).execute(task: 0)
        #expect(outcome.failure == "GET \(server.url)status/503 answered 503 Service Unavailable")
        #expect(server.counters.failed.load(ordering: .relaxed) == 1)
    }

    @Test func aRequestPastTheTimeoutFails() throws {
        let server = try server(delay: 3_000_000)
        defer { server.stop() }
        let http = try source(server.url, timeout: 0.2)
        defer { http.shutdown() }
        let outcome = http.workload(seed: 1, criticalSection: nil).execute(task: 0)
        #expect(outcome.failure == "GET \(server.url) ran past --task-timeout 0.2 s")
    }

    /// Nothing listening: the task fails with the connection error, on one line.
    @Test func aRefusedConnectionFails() throws {
        let closed = try server()
        let url = closed.url
        closed.stop()
        let http = try source(url, timeout: 2)
        defer { http.shutdown() }
        let failure = try #require(http.workload(seed: 1, criticalSection: nil).execute(task: 0).failure)
        #expect(failure.hasPrefix("GET \(url) failed: "))
        #expect(!failure.contains("\n"))
    }

    /// `/status/NNN` answers NNN; other paths 200; out-of-range codes are ignored.
    @Test func statusPaths() {
        #expect(LoadHandler.status(for: "/status/404").code == 404)
        #expect(LoadHandler.status(for: "/status/201?x=1").code == 201)
        #expect(LoadHandler.status(for: "/status/999").code == 200)
        #expect(LoadHandler.status(for: "/orders").code == 200)
    }

    /// The behaviour header round-trips into the analysis's view of the server.
    @Test func theHeaderNamesTheBehaviour() {
        let behaviour = LoadServer.Behaviour(cpuMicroseconds: 1500, delayMicroseconds: 10_000, exponential: true)
        #expect(behaviour.headerValue(threads: 4) == "threads=4 cpu_us=1500 delay_us=10000 jitter=exponential")
    }

    /// A port already taken is an error the CLI can name, not a crash.
    @Test func aTakenPortThrows() throws {
        let first = try server()
        defer { first.stop() }
        let port = Int(first.url.split(separator: ":").last!.dropLast())!
        #expect(throws: (any Error).self) { try LoadServer(host: "127.0.0.1", port: port, threads: 1, behaviour: .init()) }
    }
}
