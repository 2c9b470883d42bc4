import Foundation
import NIOHTTP1
import PoolSizeKit
import Synchronization
import PoolSizeModel
import Testing
@testable import PoolSizeHTTP

/// The HTTP workload against a real `LoadServer` on 127.0.0.1 (port 0: a free one).
@Suite(.serialized) struct HTTPSourceTests {
    func server(cpu: Double = 0, delay: Double = 0, threads: Int = 1) throws -> LoadServer {
        try LoadServer(
            host: "127.0.0.1", port: 0, threads: threads,
            behaviour: .init(cpuMicroseconds: cpu, delayMicroseconds: delay))
    }

    func source(_ url: String, timeout: Double = 10) throws -> HTTPSource {
        try HTTPSource(target: HTTPTarget(url: url), timeoutSeconds: timeout)
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
        #expect(http.handles.count <= 4)
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
        #expect(http.handles.count == 0)
        #expect(eventually { server.counters.open.load(ordering: .relaxed) == 0 })
        #expect(workload.execute(task: 9).failure == "GET \(server.url) was not sent: the client has shut down")
    }

    /// A request still in flight at shutdown ends normally, and its handle and connection are
    /// closed as it ends instead of going back to the free list.
    @Test func aRequestInFlightAtShutdownClosesItsConnection() throws {
        let server = try server(delay: 300_000)
        defer { server.stop() }
        let http = try source(server.url)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<TaskOutcome?>(nil)
        DispatchQueue.global().async {
            let result = http.workload(seed: 1, criticalSection: nil).execute(task: 0)
            outcome.withLock { $0 = result }
            finished.signal()
        }
        #expect(eventually { server.counters.open.load(ordering: .relaxed) == 1 })
        http.shutdown()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(outcome.withLock { $0 }?.failure == nil)
        #expect(http.handles.count == 0)
        #expect(eventually { server.counters.open.load(ordering: .relaxed) == 0 })
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
        #expect(outcome.failure == "GET \(server.url) ran past `taskTimeout` 200 ms")
    }

    /// Nothing listening: the task fails with the connection error, on one line.
    @Test func aRefusedConnectionFails() throws {
        let closed = try server()
        let url = closed.url
        closed.stop()
        let http = try source(url, timeout: 2)
        defer { http.shutdown() }
        let failure = try #require(http.workload(seed: 1, criticalSection: nil).execute(task: 0).failure)
        #expect(failure == "GET \(url) failed: connection refused")
    }

    /// A redirect is an answer, not followed: the task fails and says to give the final URL.
    @Test func aRedirectIsAFailedTask() throws {
        let server = try server()
        defer { server.stop() }
        let http = try source(server.url + "status/301")
        defer { http.shutdown() }
        let outcome = http.workload(seed: 1, criticalSection: nil).execute(task: 0)
        #expect(
            outcome.failure
                == "GET \(server.url)status/301 answered 301 Moved Permanently; redirects are not followed: give `httpURL` the final URL"
        )
        #expect(
            server.counters.answered.load(ordering: .relaxed) + server.counters.failed.load(ordering: .relaxed) == 1)
    }

    /// A server that closes the connection inside the answer's headers: a failed task (libcurl
    /// returned success with status 200, and the task counted as one).
    @Test func anAnswerCutInsideItsHeadersFails() throws {
        let server = try RawHTTPServer(cutAnswer: "HTTP/1.1 200 OK\r\nContent-Le")
        defer { server.stop() }
        let http = try source(server.url, timeout: 5)
        defer { http.shutdown() }
        let workload = http.workload(seed: 1, criticalSection: nil)
        for task in 0..<2 {
            #expect(
                workload.execute(task: UInt64(task)).failure
                    == "GET \(server.url) failed: the connection closed before the end of the answer's headers")
        }
        #expect(server.received.count == 2)
    }

    /// Answers that end with the connection: cut in the body or before any byte fails; a whole
    /// answer, framed by its length or by the close, succeeds.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", false),
        ("", false),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", true),
        ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nabc", true),
    ])
    func answersEndedByAClose(answer: String, succeeds: Bool) throws {
        let server = try RawHTTPServer(cutAnswer: answer)
        defer { server.stop() }
        let http = try source(server.url, timeout: 5)
        defer { http.shutdown() }
        let failure = http.workload(seed: 1, criticalSection: nil).execute(task: 0).failure
        #expect((failure == nil) == succeeds, "\(failure ?? "success")")
    }

    /// 304 Not Modified answers a conditional request: a success, and the connection carries on.
    @Test func notModifiedIsASuccess() throws {
        let server = try server()
        defer { server.stop() }
        let http = try HTTPSource(
            target: HTTPTarget(url: server.url + "status/304", headers: ["If-None-Match: \"v1\""]), timeoutSeconds: 10)
        defer { http.shutdown() }
        let workload = http.workload(seed: 1, criticalSection: nil)
        #expect(workload.execute(task: 0).failure == nil)
        #expect(workload.execute(task: 1).failure == nil)
        #expect(server.counters.accepted.load(ordering: .relaxed) == 1)
    }

    /// A URL's user:password is sent (HTTP basic authentication); without it the same path is refused.
    @Test func credentialsInTheURLAreSent() throws {
        let server = try server()
        defer { server.stop() }
        let authority = server.url.dropFirst("http://".count)
        let with = try source("http://alice:s3cret@\(authority)basic-auth/alice/s3cret")
        defer { with.shutdown() }
        #expect(with.workload(seed: 1, criticalSection: nil).execute(task: 0).failure == nil)
        let without = try source(server.url + "basic-auth/alice/s3cret")
        defer { without.shutdown() }
        #expect(
            without.workload(seed: 1, criticalSection: nil).execute(task: 0).failure
                == "GET \(server.url)basic-auth/alice/s3cret answered 401 Unauthorized")
    }

    /// Issue 31, finding 13: a key in the query string is sent as given, and a failure that
    /// quotes the URL masks it (a known name, and one marked as secret), keeping the rest.
    @Test func queryCredentialsAreSentButNotQuoted() throws {
        let raw = try RawHTTPServer()
        defer { raw.stop() }
        let sent = try HTTPSource(
            target: HTTPTarget(url: raw.url + "v1?api_key=S3CR3T&tenant=acme&page=2", secretQuery: ["tenant"]),
            timeoutSeconds: 10)
        defer { sent.shutdown() }
        #expect(sent.workload(seed: 1, criticalSection: nil).execute(task: 0).failure == nil)
        #expect(
            raw.received.first?.components(separatedBy: "\r\n").first
                == "GET /v1?api_key=S3CR3T&tenant=acme&page=2 HTTP/1.1")
        let server = try server()
        defer { server.stop() }
        let failing = try HTTPSource(
            target: HTTPTarget(
                url: server.url + "status/503?api_key=S3CR3T&tenant=acme&page=2", secretQuery: ["tenant"]),
            timeoutSeconds: 10)
        defer { failing.shutdown() }
        #expect(
            failing.workload(seed: 1, criticalSection: nil).execute(task: 0).failure
                == "GET \(server.url)status/503?api_key=REDACTED&tenant=REDACTED&page=2 answered 503 Service Unavailable"
        )
    }

    /// Method, headers and body go out as given, with no header libcurl would add on its own
    /// (Accept, Expect, a form Content-Type); one connection carries both requests.
    @Test func theRequestIsSentAsGiven() throws {
        let server = try RawHTTPServer()
        defer { server.stop() }
        let target = try HTTPTarget(
            url: server.url + "orders?id=7", method: "put", headers: ["X-Trace: abc", "X-Empty:"],
            body: Data("hello".utf8))
        let http = try HTTPSource(target: target, timeoutSeconds: 10)
        defer { http.shutdown() }
        let workload = http.workload(seed: 1, criticalSection: nil)
        #expect(workload.execute(task: 0).failure == nil)
        #expect(workload.execute(task: 1).failure == nil)
        let received = server.received
        #expect(received.count == 2)
        let request = try #require(received.first)
        let lines = request.components(separatedBy: "\r\n")
        #expect(lines.first == "PUT /orders?id=7 HTTP/1.1")
        #expect(
            Set(lines.dropFirst()) == [
                "Host: 127.0.0.1:\(server.port)", "X-Trace: abc", "X-Empty:", "Content-Length: 5", "", "hello",
            ], "\(request)")
        #expect(received.last == request)
    }

    /// A 100 MB answer is read to its end and dropped as it arrives: the process's peak
    /// resident memory grows by far less than the body (it would grow by all of it if kept).
    @Test func aLargeBodyIsCountedNotKept() throws {
        let size = 100_000_000
        let server = try RawHTTPServer(bodyBytes: size)
        defer { server.stop() }
        let http = try source(server.url)
        defer { http.shutdown() }
        let resident = try Self.memoryKilobytes("VmRSS")
        // Writing 5 resets the peak to the present (proc_pid_clear_refs(5), Linux 4.0+).
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        #expect(http.workload(seed: 1, criticalSection: nil).execute(task: 0).failure == nil)
        let peak = try Self.memoryKilobytes("VmHWM")
        #expect(http.bodyBytes.load(ordering: .relaxed) == UInt64(size))
        #expect(
            peak - resident < 32_000,
            "peak resident memory grew by \(peak - resident) kB during a \(size / 1_000_000) MB answer")
    }

    /// A figure from /proc/self/status, in kB.
    static func memoryKilobytes(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    }

    /// `/status/NNN` answers NNN; other paths 200; out-of-range codes are ignored.
    @Test func statusPaths() {
        #expect(LoadHandler.status(for: "/status/404").code == 404)
        #expect(LoadHandler.status(for: "/status/201?x=1").code == 201)
        #expect(LoadHandler.status(for: "/status/999").code == 200)
        #expect(LoadHandler.status(for: "/orders").code == 200)
    }

    /// `/basic-auth/USER/PASSWORD` answers 200 only to those credentials (RFC 7617).
    @Test func basicAuthPaths() {
        func head(_ authorization: String?) -> HTTPRequestHead {
            var headers = HTTPHeaders()
            if let authorization { headers.add(name: "Authorization", value: authorization) }
            return HTTPRequestHead(version: .http1_1, method: .GET, uri: "/basic-auth/alice/s3cret", headers: headers)
        }
        #expect(LoadHandler.status(for: head("Basic YWxpY2U6czNjcmV0")).code == 200)
        #expect(LoadHandler.status(for: head("Basic YWxpY2U6d3Jvbmc=")).code == 401)
        #expect(LoadHandler.status(for: head(nil)).code == 401)
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
        #expect(throws: (any Error).self) {
            try LoadServer(host: "127.0.0.1", port: port, threads: 1, behaviour: .init())
        }
    }
}
