import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing

/// Golden output of `probe` for fixed results.
@Suite struct ProbeOutputTests {
    static let report: ProbeReport = {
        var semaphore = SemaphoreObservation(count: 3, threads: 8, peakInside: 3, sectionsRun: 40, sectionsPlanned: 40)
            .result()
        semaphore.elapsedSeconds = 0.143
        var deadlock = DeadlockObservation(outcome: .timedOut(afterSeconds: 2), reachedSync: true, watchdogSeconds: 2)
            .result()
        deadlock.elapsedSeconds = 2.01
        var ramp = GlobalRampObservation(
            cores: 2, tasks: 32, taskMilliseconds: 50, checkpoints: [.init(seconds: 1, threads: 12, running: 12)]
        ).result()
        ramp.elapsedSeconds = 1
        return ProbeReport(results: [semaphore, deadlock, ramp])
    }()

    @Test func goldenTable() {
        let expected = """
            [holds]       semaphore: a counting semaphore caps concurrency at its count (0.143 s)
                          expected: at most 3 of 8 threads inside at once, and 3 reached
                          observed: peak 3 inside; 40/40 sections ran
                          why: 8 threads competed and exactly 3 got in at a time

            [holds]       deadlock: sync onto the current serial queue deadlocks (or traps) (2.01 s)
                          expected: deadlock (hang) or trap; the tool itself carries on
                          observed: deadlock (hang): no exit within 2.0 s; killed by the watchdog
                          why: the block waited for itself until the 2.0 s watchdog killed the child: a serial queue cannot run a sync block while it runs the caller

            [differs]     global-ramp: the global queue adds at most ~1 thread/s when its tasks block (1.00 s)
                          expected: about 2 threads (cores), growing by at most ~1.0/s; far fewer than 32 blocked tasks
                          observed: 12 @ 1 s
                          why: 12 threads after 1 s, more than cores + ~1.0/s allows (4); growth 0.0 threads/s

            3 probes: 2 holds, 1 differs, 0 cannot tell

            """
        #expect(ProbeTable.render(Self.report) == expected)
    }

    @Test func cannotTellIsAligned() {
        var result = SemaphoreObservation(count: 3, threads: 8, peakInside: 2, sectionsRun: 40, sectionsPlanned: 40)
            .result()
        result.elapsedSeconds = nil
        let text = ProbeTable.render(ProbeReport(results: [result]))
        #expect(
            text.hasPrefix(
                "[cannot tell] semaphore: a counting semaphore caps concurrency at its count\n              expected: ")
        )
        #expect(text.hasSuffix("\n1 probe: 0 holds, 0 differs, 1 cannot tell\n"))
    }

    @Test func goldenJSON() {
        let report = ProbeReport(results: [
            SemaphoreObservation(count: 3, threads: 8, peakInside: 3, sectionsRun: 40, sectionsPlanned: 40).result()
        ])
        let expected = """
            {
              "results" : [
                {
                  "claim" : "a counting semaphore caps concurrency at its count",
                  "expected" : "at most 3 of 8 threads inside at once, and 3 reached",
                  "explanation" : "8 threads competed and exactly 3 got in at a time",
                  "measurements" : [
                    {
                      "expected" : "3",
                      "label" : "peak inside",
                      "observed" : "3"
                    },
                    {
                      "expected" : "40",
                      "label" : "sections run",
                      "observed" : "40"
                    }
                  ],
                  "name" : "semaphore",
                  "observed" : "peak 3 inside; 40/40 sections ran",
                  "verdict" : "holds"
                }
              ],
              "schema_version" : 1
            }

            """
        #expect(JSONExport.serialize(report) == expected)
    }

    @Test func jsonSpellsVerdictsAsPrinted() throws {
        let result = SemaphoreObservation(count: 3, threads: 8, peakInside: 2, sectionsRun: 40, sectionsPlanned: 40)
            .result()
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(ProbeReport(results: [result])).utf8))
                as? [String: Any])
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(first["verdict"] as? String == "cannot tell")
        #expect(first["name"] as? String == "semaphore")
    }
}
