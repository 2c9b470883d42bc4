import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

@testable import PoolSizeHTTP

/// A load tool given an open-loop trial's rate (`{rate}`): the open loop's figures from what it
/// printed (k6 1.1.0's summaries of Examples/load/k6-rate.js at 400/s, recorded in
/// Tests/Fixtures/loadtool), and the trial invalid when the tool, not the server, held
/// arrivals back. Every expected figure is worked by hand from the fixture's numbers.
@Suite struct ToolAtRateTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/loadtool")

    static func k6(_ file: String) throws -> LoadToolFigures {
        let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        return try LoadToolParser(preset: .k6).parse(standardOutput: text)
    }

    static func trial(slo: Double?) -> OpenLoopTrial {
        var trial = OpenLoopTrial(
            ratePerSecond: 400, process: .tool, warmupNanoseconds: 0, windowNanoseconds: 3_000_000_000,
            tailNanoseconds: 0)
        trial.latencySLOMicroseconds = slo
        return trial
    }

    /// The metrics a tool's trial has before its open loop is recorded (`LoadToolRun.metrics`).
    static func metrics(_ figures: LoadToolFigures, window: Double) -> TrialMetrics {
        var metrics = TrialMetrics(
            windowSeconds: window, throughputPerSecond: figures.throughputPerSecond, cpuMicrosecondsPerTask: 0,
            waitMicrosecondsPerTask: 0, utilization: 0, peakConcurrency: 0, threads: 0,
            latency: figures.latency ?? LatencyPercentiles())
        metrics.errors = figures.errors
        return metrics
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1) }

    /// 8 workers kept up: k6 dropped nothing (no dropped_iterations line), so what it offered is
    /// what it carried, 398.71/s; the backlog is Little's, 398.712984/s × 10.76 ms = 4.2902.
    @Test func aServerThatKeptUpIsStableAndValid() throws {
        let figures = try Self.k6("k6-rate-kept-up.txt")
        var metrics = Self.metrics(figures, window: 3.3)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 50_000), size: 8, tool: "k6")
        let open = try #require(metrics.figures.openLoop)
        #expect(open.arrivalRate == ArrivalRate(perSecond: 400))
        #expect(Self.near(open.offeredPerSecond, 398.712984) && Self.near(open.achievedPerSecond, 398.712984))
        #expect(Self.near(open.backlogMean, 4.290151707840001))
        #expect(open.stable)
        #expect(!open.backlogMeasured && open.dispatchLagP99Microseconds.isNaN)
        #expect(metrics.invalidReason == nil)
    }

    /// 3 workers fell behind and k6's 40 users were all busy: it dropped 293 of 1,201 arrivals.
    /// Offered 289.773083 × 1201 / 908 = 383.279/s, carried 289.77/s, so not stable. At 50 ms
    /// the objective needs 400/s × 100 ms = 40 in flight, as many as k6 had: the server held
    /// them, and the trial is the server's, failing on its own figures.
    @Test func arrivalsDroppedWithEnoughSendersAreTheServersQueue() throws {
        let figures = try Self.k6("k6-rate-dropped.txt")
        var metrics = Self.metrics(figures, window: 3.1)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 50_000), size: 3, tool: "k6")
        let open = try #require(metrics.figures.openLoop)
        #expect(Self.near(open.offeredPerSecond, 383.27915493722463))
        #expect(Self.near(open.achievedPerSecond, 289.773083))
        #expect(Self.near(open.backlogMean, 289.773083 * 0.12652))
        #expect(!open.stable)
        #expect(metrics.invalidReason == nil)
    }

    /// The same run judged against 100 ms needs 80 in flight, more than k6's 40: the arrivals
    /// it dropped waited in the tool, which hid how the server's queue behaved.
    @Test func arrivalsDroppedWithTooFewSendersAreTheTools() throws {
        let figures = try Self.k6("k6-rate-dropped.txt")
        var metrics = Self.metrics(figures, window: 3.1)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 100_000), size: 3, tool: "k6")
        #expect(
            metrics.invalidReason
                == "k6 did not send 293 of its 1201 arrivals (all 40 of its senders were busy), so the tool, not the server, held the queue; let it keep 80 or more requests in flight (the rate × twice the objective of 100 ms, and at least the size; -e VUS=80 with Examples/load/k6-rate.js)"
        )
        // A tool that does not say how many it can send at once is never taken to have had enough.
        var unknown = figures
        unknown.concurrency = nil
        var other = Self.metrics(unknown, window: 3.1)
        ServerLoad.recordAtRate(&other, figures: unknown, trial: Self.trial(slo: 50_000), size: 3, tool: "attack")
        #expect(
            other.invalidReason
                == "attack did not send 293 of its 1201 arrivals (it did not say how many it could send at once), so the tool, not the server, held the queue; let it keep 40 or more requests in flight (the rate × twice the objective of 50.0 ms, and at least the size)"
        )
    }

    /// One dropped arrival in 1,201 is under the one in a thousand that may wait (1.2).
    @Test func aFewDroppedArrivalsAreNoShortfall() throws {
        var figures = try Self.k6("k6-rate-dropped.txt")
        figures.concurrency = 1
        figures.dropped = 1
        figures.requests = 1200
        figures.throughputPerSecond = 398
        var metrics = Self.metrics(figures, window: 3.0)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 50_000), size: 3, tool: "k6")
        #expect(metrics.invalidReason == nil)
    }

    /// A tool that ran at its own rate, not the one asked ({rate} in the wrong place): 200/s
    /// carried of 400/s, nothing dropped, and the server held 200/s × 10.5 ms = 2.1 requests on
    /// average, fewer than its 8 threads: the pool had room, the arrivals did not come.
    @Test func aToolThatCarriedLessWhileThePoolHadRoomIsInvalid() {
        let figures = LoadToolFigures(
            throughputPerSecond: 200, latency: LatencyPercentiles(p50: 10_000, p99: 12_000),
            meanLatencyMicroseconds: 10_500, requests: 600)
        var metrics = Self.metrics(figures, window: 3.0)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 50_000), size: 8, tool: "wrk2")
        #expect(
            metrics.invalidReason
                == "wrk2 carried 200/s of the 400/s asked while the server held 2.10 requests on average (Little's law), fewer than its 8 threads: the arrivals did not come at the rate; check that {rate} is where the tool takes its request rate and that the tool can send that fast (more senders, cores, or another host)"
        )
        #expect(metrics.figures.openLoop?.stable == false)
    }

    /// A size that falls behind while the tool has senders to spare drops nothing: 3 workers
    /// carried 300/s of 400/s and held 300/s × 500 ms = 150 requests on average, more than its 3
    /// threads. It did not keep up, and the trial is the server's.
    @Test func aSizeThatFellBehindWithoutDropsIsNotStable() {
        let figures = LoadToolFigures(
            throughputPerSecond: 300, latency: LatencyPercentiles(p50: 500_000, p99: 900_000),
            meanLatencyMicroseconds: 500_000, requests: 1200, dropped: 0, concurrency: 1000)
        var metrics = Self.metrics(figures, window: 4.0)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: 50_000), size: 3, tool: "python3")
        #expect(metrics.invalidReason == nil)
        #expect(metrics.figures.openLoop?.stable == false)
        #expect(metrics.figures.openLoop?.offeredPerSecond == 300)
    }

    /// A server that answered nothing carried nothing: never kept up, whatever else is read.
    @Test func nothingCarriedNeverKeepsUp() {
        let figures = LoadToolFigures(
            throughputPerSecond: 0, latency: LatencyPercentiles(), meanLatencyMicroseconds: 0, requests: 0,
            dropped: 1200, concurrency: 64)
        var metrics = Self.metrics(figures, window: 3.0)
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: Self.trial(slo: nil), size: 2, tool: "k6")
        #expect(metrics.figures.openLoop?.stable == false)
        #expect(metrics.figures.openLoop?.offeredPerSecond == 400)
    }

    /// An objective on p99.9 that k6 was not asked to print (no p(99.9) in its trend stats):
    /// no verdict rests on a percentile of 0.
    @Test func aPercentileTheToolDidNotPrintGivesNoVerdict() throws {
        let figures = try Self.k6("k6-rate-kept-up.txt")
        var metrics = Self.metrics(figures, window: 3.0)
        var trial = Self.trial(slo: 50_000)
        trial.sloPercentile = 99.9
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: trial, size: 8, tool: "k6")
        #expect(
            metrics.invalidReason
                == "k6 printed no p99.9, the percentile the objective names, so the trial has no verdict; have it print one (k6: --summary-trend-stats with p(99.9)) and read it with a (?<p999>…) group, or set `sloPercentile` to one it prints"
        )
    }

    /// A size that fell behind spends a tail answering what it queued, inside the tool's window:
    /// rate-load.py at 200/s for 2 s on 64 senders against one worker sent 259 requests, dropped
    /// 141 and answered its last at 2.67 s, so 400 arrivals over 2.67 s look like 150/s. That is
    /// no rate not reached (it dropped arrivals for want of a free sender), and with 64 senders
    /// for a size of 1 the server held them: valid, not stable.
    @Test func aSizeThatFellBehindIsNotTakenForARateNotReached() {
        let figures = LoadToolFigures(
            throughputPerSecond: 97.1, latency: LatencyPercentiles(p50: 500_000, p99: 676_500),
            meanLatencyMicroseconds: 500_000, requests: 259, durationSeconds: 2.67, dropped: 141, concurrency: 64)
        var metrics = Self.metrics(figures, window: 2.67)
        var trial = Self.trial(slo: nil)
        trial.ratePerSecond = 200
        ServerLoad.recordAtRate(&metrics, figures: figures, trial: trial, size: 1, tool: "python3")
        #expect(metrics.invalidReason == nil)
        #expect(metrics.figures.openLoop?.stable == false)
        #expect(Self.near(metrics.figures.openLoop?.offeredPerSecond ?? 0, 97.1 * 400 / 259))
        #expect(metrics.figures.loop.problem(windowSeconds: 2.67) == nil)
    }

    /// A run whose output gave no figures is invalid already; its record is still the open
    /// loop's, at the rate asked, carrying nothing.
    @Test func aRunWithoutFiguresKeepsItsReasonAndRate() {
        var metrics = TrialMetrics(
            windowSeconds: 3, throughputPerSecond: 0, cpuMicrosecondsPerTask: 0, waitMicrosecondsPerTask: 0,
            utilization: 0, peakConcurrency: 0, threads: 0)
        metrics.invalidReason = "k6: exited with status 107; …"
        ServerLoad.recordAtRate(&metrics, figures: nil, trial: Self.trial(slo: nil), size: 2, tool: "k6")
        #expect(metrics.invalidReason == "k6: exited with status 107; …")
        #expect(metrics.figures.openLoop?.arrivalRate == ArrivalRate(perSecond: 400))
        #expect(metrics.figures.openLoop?.stable == false)
    }
}
