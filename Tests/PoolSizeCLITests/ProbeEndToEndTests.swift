import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

/// Runs the built binary: the deadlock probe's child modes under a short watchdog, and short
/// `probe` and `calibrate` runs. Every run goes through the watchdog runner, so a regression
/// that hangs fails the test instead of hanging it. No assertion depends on machine speed.
@Suite(.serialized) struct ProbeEndToEndTests {
    static func run(_ arguments: [String], timeout: Double = 120) -> ChildRun {
        ChildProcessRunner(timeoutSeconds: timeout).run(executable: EndToEndTests.binary, arguments: arguments)
    }

    @Test func hangingChildIsDetectedAsAHang() {
        let observation = DeadlockProbe(executable: EndToEndTests.binary, scenario: .hang, watchdogSeconds: 0.5)
            .observe()
        #expect(observation.classification == .hang, "\(observation)")
        #expect(observation.result().verdict == .holds)
    }

    @Test func trappingChildIsDetectedAsATrap() {
        let observation = DeadlockProbe(executable: EndToEndTests.binary, scenario: .trap, watchdogSeconds: 10)
            .observe()
        #expect(observation.outcome == .signaled(signal: SIGTRAP), "\(observation)")
        #expect(observation.classification == .trap)
    }

    @Test func childWhoseSyncReturnsIsReportedAsDiffering() {
        let observation = DeadlockProbe(executable: EndToEndTests.binary, scenario: .returns, watchdogSeconds: 10)
            .observe()
        #expect(observation.classification == .completed, "\(observation)")
        #expect(observation.result().verdict == .differs)
    }

    /// The real thing: libdispatch traps or the block waits forever; either way the probe returns.
    @Test func syncOnOwnQueueDeadlocksOrTraps() {
        let observation = DeadlockProbe(executable: EndToEndTests.binary, watchdogSeconds: 2).observe()
        #expect([.hang, .trap].contains(observation.classification), "\(observation)")
    }

    @Test func probeWritesJSONInTheOrderAsked() throws {
        let result = Self.run(["probe", "deadlock", "round-robin", "semaphore", "--format", "json", "--quiet"])
        #expect(result.outcome == .exited(code: 0), "stderr: \(result.standardError)")
        #expect(result.standardError.isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.map { $0["name"] as? String } == ["deadlock", "round-robin", "semaphore"])
        for probe in results {
            #expect(Verdict(rawValue: probe["verdict"] as? String ?? "") != nil)
            #expect((probe["explanation"] as? String)?.isEmpty == false)
        }
        #expect(json["machine"] != nil)
    }

    @Test func unknownProbeFailsWithTheValidNames() {
        let result = Self.run(["probe", "bogus"])
        #expect(result.outcome == .exited(code: 64))
        #expect(
            result.standardError
                == "error: probe: unknown probe 'bogus'; use one of nice, serial-threads, global-ramp, deadlock, round-robin, semaphore\n"
        )
        #expect(result.standardOutput.isEmpty)
    }

    /// A short calibration: the CSV and the JSON agree row for row.
    @Test func calibrateWritesMatchingCSVAndJSON() throws {
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-calibrate-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        let result = Self.run([
            "calibrate", "--rounds", "3", "--round-ms", "1", "--format", "json", "--quiet", "--out", csv.path,
        ])
        #expect(result.outcome == .exited(code: 0), "stderr: \(result.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let measurements = try #require(json["measurements"] as? [[String: Any]])
        #expect(json["csv_path"] as? String == csv.path)
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n")
        #expect(lines.first.map(String.init) == CalibrationCSVHeader.text)
        #expect(
            lines.dropFirst().map { String($0.prefix { $0 != "," }) } == measurements.compactMap { $0["id"] as? String }
        )
        let ids = Set(measurements.compactMap { $0["id"] as? String })
        for required in [
            "thread_create_to_start", "thread_create_join", "lock_mutex", "compare_and_swap", "context_switch",
            "dispatch_async_to_start_serial", "harness_cost_per_task", "idle_thread_rss", "default_stack_size",
        ] {
            #expect(ids.contains(required), "missing \(required)")
        }
        #expect(measurements.allSatisfy { ($0["rounds"] as? [Double])?.isEmpty == false })
    }
}

/// The CSV header, spelled out so a change to the columns is a visible test change.
enum CalibrationCSVHeader {
    static let text =
        "operation_id,operation,unit,rounds,median,mean,ci95_low,ci95_high,min,max,apple_reference,ratio_to_apple,earlier_reference,method"
}
