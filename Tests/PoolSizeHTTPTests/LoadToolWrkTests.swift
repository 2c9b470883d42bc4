import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

@testable import PoolSizeHTTP

/// A real wrk through `load`'s runner, against `poolsize serve`'s server (`LoadServer`) started
/// here on a free port of 127.0.0.1 and stopped on every way out of the test. wrk's output is
/// also written to a file (`tee`), read here with a reader of the test's own, so the trial's
/// figures are checked against what wrk printed, not against the parser that made them. Skipped
/// where wrk is not installed.
@Suite(.serialized) struct LoadToolWrkTests {
    static let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The value after `label` on wrk's line that starts with it (`Requests/sec:   1724.70`).
    static func field(_ output: String, _ label: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(label) }?.dropFirst(label.count).split(separator: " ").first.map(String.init)
    }

    /// wrk's time (`2.31ms`, `450.00us`, `1.02s`) in µs, read apart from the parser's units.
    static func microseconds(_ text: String) -> Double? {
        for (suffix, scale) in [("us", 1.0), ("ms", 1e3), ("s", 1e6)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }

    /// Every answer a 503: the trial's throughput is the Requests/sec wrk printed, its errors
    /// the non-2xx answers it counted (plus any socket errors), its window the span wrk
    /// printed, its latency percentiles wrk's; `{size}` reached wrk as its connections, and
    /// `{port}` as the server's port.
    @Test func wrksFiguresAreTheTrials() throws {
        try #require(Self.wrk != nil, "needs wrk: scripts/install-test-servers.sh (apt-get install wrk)")
        let server = try LoadServer(
            host: "127.0.0.1", port: 0, threads: 1, behaviour: .init(delayMicroseconds: 20_000))
        defer { server.stop() }
        let port = try #require(URL(string: server.url)?.port)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-wrk-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: copy) }
        let measurer = try LoadToolMeasurer(
            command: LoadCommand(
                "sh -c '\(Self.wrk!) -t1 -c{size} -d1s --latency http://127.0.0.1:{port}/status/503 | tee \(copy.path)'",
                requiresSize: true),
            parser: LoadToolParser(preset: .wrk), timeoutSeconds: 60, port: port)
        let request = TrialRequest(
            combination: Combination(pool: .queuePool, qos: .default, primitive: .none), size: 3,
            loop: .closed(TrialSettings(durationNanoseconds: 1_000_000_000)), seed: 1)
        let (metrics, integrity) = measurer.measure(request, cores: 2, readRatio: 0)
        let output = try String(contentsOf: copy, encoding: .utf8)

        #expect(metrics.invalidReason == nil, "\(output)")
        #expect(integrity == nil)
        // wrk also opens a connection of its own to check the address first: counted are the
        // requests in flight at once, one per connection, each held 20 ms by the server.
        #expect(output.contains("1 threads and 3 connections"))
        #expect(server.counters.mostInFlight.load(ordering: .relaxed) == 3)
        let throughput = try #require(Self.field(output, "Requests/sec:").flatMap(Double.init))
        #expect(metrics.throughputPerSecond == throughput)
        #expect(throughput > 0)
        let non2xx = try #require(Self.field(output, "Non-2xx or 3xx responses:").flatMap(Int.init))
        #expect(non2xx > 0)
        // `Socket errors: connect 0, read 0, write 0, timeout 0`, when wrk had any.
        let socket = output.split(separator: "\n").first { $0.contains("Socket errors:") }.map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }.reduce(0, +)
        }
        #expect(metrics.errors == non2xx + (socket ?? 0))
        // `  3454 requests in 2.00s, 445.24KB read`
        let requests = try #require(output.split(separator: "\n").first { $0.contains(" requests in ") })
        let span = try #require(requests.split(separator: " ").first { $0.hasSuffix("s,") }?.dropLast(2))
        #expect(metrics.wallSeconds == Double(span))
        for (label, percentile) in [("50%", \LatencyPercentiles.p50), ("90%", \.p90), ("99%", \.p99)] {
            let printed = try #require(Self.field(output, label).flatMap(Self.microseconds))
            #expect(abs(metrics.latency[keyPath: percentile] - printed) < 1e-6, "\(label)")
        }
    }
}
