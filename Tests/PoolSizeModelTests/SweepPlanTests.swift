import Foundation
import Testing
@testable import PoolSizeModel

/// The plan is one value: written whole to machine.json, read back equal, and `--resume`
/// names the first field two plans differ in.
@Suite struct SweepPlanTests {
    static func plan(trialMilliseconds: Int? = 100) -> SweepPlan {
        SweepPlan(
            runID: "20261123-000000-io", spec: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
            sizes: .explicit([1, 2, 4]),
            cores: 2, seed: 7, trialMilliseconds: trialMilliseconds)
    }

    @Test func roundTripsThroughJSONWithSnakeCaseKeys() throws {
        var plan = Self.plan()
        plan.load = .open(
            ArrivalPlan(rates: [1000], process: .poisson, latencySLOMicroseconds: 40_000, sloPercentile: 99))
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(plan)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"run_id\":\"20261123-000000-io\""))
        #expect(text.contains("\"sizes\":\"1,2,4\""))
        #expect(text.contains("\"read_ratio\":0.5"))
        #expect(text.contains("\"load\":{\"kind\":\"open\",\"arrival\":{") || text.contains("\"load\":{\"arrival\":{"))
        #expect(try JSONDecoder().decode(Load.self, from: Data(#"{"kind":"closed"}"#.utf8)) == .closed)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(SweepPlan.self, from: data) == plan)
    }

    /// A server sweep's target is part of the plan: written whole (snake_cased), read back
    /// equal, a plan of another server or of in-process pools named as the difference, and a
    /// plan recorded before targets existed read as in-process pools.
    @Test func aServerTargetRoundTripsAndIsCompared() throws {
        var plan = Self.plan()
        let setup = ServerSetup(
            command: "gunicorn --threads '{size}' -b '127.0.0.1:{port}' app:app",
            url: "http://REDACTED@127.0.0.1:{port}/work", connections: 64, readyTimeoutSeconds: 30)
        plan.target = .server(setup)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(plan)
        let text = String(decoding: data, as: UTF8.self)
        #expect(
            text.contains(
                #""target":{"kind":"server","server":{"command":"gunicorn --threads '{size}' -b '127.0.0.1:{port}' app:app","connections":64,"ready_timeout_seconds":30,"sizing":{"restart":{}},"url":"http:\/\/REDACTED@127.0.0.1:{port}\/work"}}"#
            ), "\(text)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(SweepPlan.self, from: data) == plan)
        #expect(
            Self.plan().difference(from: plan)
                == "its server was '\(setup.command)' at \(setup.url) with 64 connection(s), ready within 30 s, this sweep's is none (pools in poolsize's own process)"
        )
        var older = try JSONSerialization.jsonObject(with: encoder.encode(Self.plan())) as? [String: Any] ?? [:]
        older["target"] = nil
        let read = try decoder.decode(SweepPlan.self, from: JSONSerialization.data(withJSONObject: older))
        #expect(read.target == .inProcess && read == Self.plan())
    }

    /// A server plan as `sweep --server` records one: its workload described by the masked
    /// command (`description`), the target holding the command itself.
    static func serverPlan(command: String, description: String) -> SweepPlan {
        var plan = plan()
        plan.spec.description = description
        plan.target = .server(
            ServerSetup(command: command, url: "http://127.0.0.1:{port}/", connections: 64, readyTimeoutSeconds: 30))
        return plan
    }

    /// `--resume` with another server command is refused naming both commands as recorded,
    /// not the workload descriptions (which came first, and named the commands only through
    /// the description); two commands described alike are refused too.
    @Test func anotherServerCommandIsNamedByBothCommands() {
        let recorded = Self.serverPlan(
            command: "gunicorn --threads '{size}' app:app", description: "server: gunicorn --threads '{size}' app:app")
        let other = Self.serverPlan(
            command: "gunicorn --workers '{size}' app:app", description: "server: gunicorn --workers '{size}' app:app")
        #expect(
            other.difference(from: recorded)
                == "its `server` command was 'gunicorn --threads '{size}' app:app', this sweep's is 'gunicorn --workers '{size}' app:app'"
        )
        let alike = Self.serverPlan(
            command: "gunicorn --workers '{size}' app:app", description: recorded.spec.description)
        #expect(
            alike.difference(from: recorded)
                == "its `server` command was 'gunicorn --threads '{size}' app:app', this sweep's is 'gunicorn --workers '{size}' app:app'"
        )
    }

    @Test func equalPlansDifferInNothingButTheirRunID() {
        var other = Self.plan()
        other.runID = "another"
        #expect(Self.plan().difference(from: other) == nil)
    }

    @Test func theFirstDifferingFieldIsNamedAsItsFlag() {
        var read = Self.plan()
        read.readRatio = 0.9
        #expect(read.difference(from: Self.plan()) == "its `readRatio` was 0.5, this sweep's is 0.9")
        var busy = Self.plan()
        busy.busyRetries = 0
        #expect(busy.difference(from: Self.plan()) == "its `busyRetries` was 2, this sweep's is 0")
        #expect(
            Self.plan(trialMilliseconds: nil).difference(from: Self.plan())
                == "its `trialMilliseconds` was 100, this sweep's is not given")
        var sizes = Self.plan()
        sizes.sizes = .auto
        #expect(sizes.difference(from: Self.plan()) == "its `sizes` was 1,2,4, this sweep's is auto")
        var open = Self.plan()
        open.load = .open(ArrivalPlan(rates: [1000], latencySLOMicroseconds: 40_000))
        #expect(
            open.difference(from: Self.plan())
                == "its load was a closed loop (no `arrivalRates`), this sweep's is 1000/s poisson, p99 ≤ 40000 µs")
        var seed = Self.plan()
        seed.seed = 8
        seed.readRatio = 0.1
        // Declaration order: seed comes before the read ratio.
        #expect(seed.difference(from: Self.plan()) == "its seed was 7, this sweep's is 8")
    }
}

extension SweepPlanTests {
    /// Specs that differ beyond their short description are told apart, and shown whole.
    @Test func specsDifferingOutsideTheirDescriptionAreNotTheSame() throws {
        var other = Self.plan()
        other.spec.maxTasks = 10
        // Named by the spec file's field, as the user wrote it (it was a dump of the Swift value).
        #expect(other.difference(from: Self.plan()) == "its workload's max_tasks was not set, this sweep's is 10")
        other.spec.maxTasks = nil
        other.spec.description = "another"
        #expect(Self.plan().spec.description.isEmpty)
        #expect(
            other.difference(from: Self.plan()) == "its workload's description was not set, this sweep's is \"another\""
        )
    }
}
