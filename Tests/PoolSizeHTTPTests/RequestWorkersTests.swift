import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

@testable import PoolSizeHTTP

/// `LoadServer` with a thread-per-request pool (`serve --workers N`) on 127.0.0.1 (port 0: a
/// free one). Each test reads the server's counters, not the clock: how many workers served at
/// once and how many requests waited for one follow from the pool's size alone.
@Suite(.serialized) struct RequestWorkersTests {
    func server(workers: Int, cpu: Double = 0, delay: Double) throws -> LoadServer {
        try LoadServer(
            host: "127.0.0.1", port: 0, threads: 1, workers: workers,
            behaviour: .init(cpuMicroseconds: cpu, delayMicroseconds: delay))
    }

    /// Waits (bounded; a guard against a hang, not a bound on speed) until `condition` holds.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return condition()
    }

    /// `count` blocking requests at once, each on a thread of its own, each outcome's failure
    /// (nil for none) given to `ended`; the group is done when every one has ended.
    func requests(_ count: Int, to url: String, ended: @escaping @Sendable (String?) -> Void = { _ in }) throws
        -> (HTTPSource, DispatchGroup)
    {
        let http = try HTTPSource(target: HTTPTarget(url: url), timeoutSeconds: 120)
        let workload = http.workload(seed: 1, criticalSection: nil)
        let group = DispatchGroup()
        for task in 0..<count {
            group.enter()
            Thread.detachNewThread {
                ended(workload.execute(task: UInt64(task)).failure)
                group.leave()
            }
        }
        return (http, group)
    }

    /// Four connections kept busy by the load driver against two workers holding 50 ms each: the
    /// server has all four requests in flight, yet never more than two are served at once, and
    /// the other two wait in the queue — two rounds per four requests.
    @Test func twoWorkersServeFourRequestsTwoAtATime() throws {
        let server = try server(workers: 2, delay: 50_000)
        defer { server.stop() }
        let driver = try HTTPLoadDriver(target: HTTPTarget(url: server.url), connections: 4)
        let result = try driver.run(warmupNanoseconds: 100_000_000, durationNanoseconds: 500_000_000)
        #expect(result.failures == 0)
        #expect(result.requests >= 4)
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) == 4)
        #expect(server.counters.mostBusyWorkers.load(ordering: .relaxed) == 2)
        #expect(server.counters.mostQueued.load(ordering: .relaxed) >= 2)
        #expect(server.counters.busyWorkers.load(ordering: .relaxed) <= 2)
        #expect(server.workers == 2)
    }

    /// The delay holds the worker: with two workers each sleeping through a 10-minute delay, a
    /// third request waits in the queue and nothing is answered; stopping the server wakes the
    /// sleepers at once, so the stop does not take the delay.
    @Test func theDelayHoldsAWorkerAndAThirdRequestWaits() throws {
        let server = try server(workers: 2, delay: 600_000_000)
        let (http, clients) = try requests(3, to: server.url)
        defer { http.shutdown() }
        #expect(
            eventually {
                server.counters.busyWorkers.load(ordering: .relaxed) == 2
                    && server.counters.queued.load(ordering: .relaxed) == 1
            })
        #expect(server.counters.inFlight.load(ordering: .relaxed) == 3)
        #expect(server.counters.answered.load(ordering: .relaxed) == 0)
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + 60) == .success, "stop waited for the workers' delay")
        #expect(clients.wait(timeout: .now() + 60) == .success)
        #expect(server.counters.mostBusyWorkers.load(ordering: .relaxed) == 2)
    }

    /// One worker, three requests: they are served one after another, every one answered.
    @Test func oneWorkerServesOneAtATimeAndAnswersAll() throws {
        let server = try server(workers: 1, cpu: 500, delay: 20_000)
        defer { server.stop() }
        let failures = Mutex<[String?]>([])
        let (http, clients) = try requests(3, to: server.url) { failure in failures.withLock { $0.append(failure) } }
        defer { http.shutdown() }
        #expect(clients.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == [nil, nil, nil])
        #expect(server.counters.answered.load(ordering: .relaxed) == 3)
        #expect(server.counters.mostBusyWorkers.load(ordering: .relaxed) == 1)
        #expect(server.counters.busyWorkers.load(ordering: .relaxed) == 0)
        #expect(server.counters.queued.load(ordering: .relaxed) == 0)
    }

    /// The header names the workers, and `threads` counts the threads that burn the CPU: the
    /// workers, not the event loops that only pass requests to them.
    @Test func theHeaderNamesTheWorkers() throws {
        let behaviour = LoadServer.Behaviour(cpuMicroseconds: 1000, delayMicroseconds: 9000)
        #expect(
            behaviour.headerValue(threads: 2, workers: 20)
                == "threads=20 workers=20 cpu_us=1000 delay_us=9000 jitter=none")
        #expect(behaviour.headerValue(threads: 2) == "threads=2 cpu_us=1000 delay_us=9000 jitter=none")
        let server = try server(workers: 3, delay: 1_000)
        defer { server.stop() }
        let http = try HTTPSource(target: HTTPTarget(url: server.url), timeoutSeconds: 10)
        defer { http.shutdown() }
        #expect(http.workload(seed: 1, criticalSection: nil).execute(task: 0).failure == nil)
        #expect(http.observedServer == "threads=3 workers=3 cpu_us=0 delay_us=1000 jitter=none")
    }
}
