import Foundation
import PoolSizeModel
import PoolSizeObserve
@testable import PoolSizeOutput
import Testing

/// Issue 31, hostile readers: an observation.json with figures `observe` cannot have written
/// (a negative duration, a pool of no threads, a share of 150%, a slice that ends before it
/// starts or after the observation, 1e300 cores) was read and reported. Each is refused in one
/// line naming the file, the key and the value, as the sweep's files are
/// (RunDirectoryDamageTests); so is a machine.json without its `machine`.
@Suite struct ObservationDamageTests {
    static let fixture = ReportFixtures.fixture("extremes/observation")

    /// A copy of the observation fixture with `edit` applied to its observation.json.
    static func damaged(_ file: String = "observation.json", _ edit: @escaping (inout Any) -> Void) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observation-\(UUID())")
        try FileManager.default.copyItem(at: fixture, to: dir)
        let url = dir.appendingPathComponent(file)
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return dir
    }

    /// Sets the value at `path` (object keys and array indexes) in parsed JSON.
    static func set(_ path: [Any], _ value: Any?, in json: inout Any) {
        guard let first = path.first else {
            json = value as Any
            return
        }
        if let key = first as? String, var object = json as? [String: Any] {
            if path.count == 1 {
                object[key] = value
            } else {
                var child = object[key] as Any
                set(Array(path.dropFirst()), value, in: &child)
                object[key] = child
            }
            json = object
        } else if let index = first as? Int, var array = json as? [Any] {
            set(Array(path.dropFirst()), value, in: &array[index])
            json = array
        }
    }

    static let damaged = "the file is damaged: observe again"
    static var cases: [(path: [Any], value: Double, message: String)] {
        [
            (["duration_seconds"], -1, "key 'duration_seconds' is -1, which no observation gives (from 0 to 172800)"),
            (
                ["duration_seconds"], 1e300,
                "key 'duration_seconds' is 1e+300, which no observation gives (from 0 to 172800)"
            ),
            // A duration of 0 is one sweep: then there is no timeline for the slices to end in.
            (
                ["duration_seconds"], 0,
                "key 'pools.[0].timeline.[0].end_seconds' is 1, which no observation gives (above start_seconds and at "
                    + "most duration_seconds)"
            ),
            (["cores", "online"], 0, "key 'cores.online' is 0, which no observation gives (from 1 to 4096)"),
            (
                ["cpu_pressure_some_percent"], 250,
                "key 'cpu_pressure_some_percent' is 250, which no observation gives (from 0 to 100)"
            ),
            (
                ["sampler", "wall_seconds"], -3,
                "key 'sampler.wall_seconds' is -3, which no observation gives (from 0 to 172800)"
            ),
            (
                ["settings", "target_utilization"], 0,
                "key 'settings.target_utilization' is 0, which no observation gives (above 0 and at most 1)"
            ),
            (
                ["pools", 0, "threads"], 0,
                "key 'pools.[0].threads' is 0, which no observation gives (from 1 to 4194304)"
            ),
            (
                ["pools", 0, "threads"], -2,
                "key 'pools.[0].threads' is -2, which no observation gives (from 1 to 4194304)"
            ),
            (
                ["pools", 0, "threads_seen"], -1,
                "key 'pools.[0].threads_seen' is -1, which no observation gives (from 0 to 4194304)"
            ),
            (
                ["pools", 0, "mean_threads"], 1e300,
                "key 'pools.[0].mean_threads' is 1e+300, which no observation gives (from 0 to 4194304)"
            ),
            (
                ["pools", 0, "cpu_cores"], -0.5,
                "key 'pools.[0].cpu_cores' is -0.5, which no observation gives (from 0 to 4096)"
            ),
            (
                ["pools", 0, "shares", 2, "fraction"], 1.5,
                "key 'pools.[0].shares.[2].fraction' is 1.5, which no observation gives (a fraction from 0 to 1)"
            ),
            (
                ["pools", 1, "busy", "high"], -0.25,
                "key 'pools.[1].busy.high' is -0.25, which no observation gives (a fraction from 0 to 1)"
            ),
            (
                ["pools", 0, "size", "low"], 0,
                "key 'pools.[0].size.low' is 0, which no observation gives (a finite number above 0)"
            ),
            (
                ["pools", 0, "per_task", "throughput_per_second"], 0,
                "key 'pools.[0].per_task.throughput_per_second' is 0, which no observation gives (a finite number "
                    + "above 0)"
            ),
            (
                ["pools", 0, "per_task", "cpu_seconds"], -1,
                "key 'pools.[0].per_task.cpu_seconds' is -1, which no observation gives (a finite number, 0 or more)"
            ),
            (
                ["pools", 0, "timeline", 1, "end_seconds"], 0.5,
                "key 'pools.[0].timeline.[1].end_seconds' is 0.5, which no observation gives (above start_seconds and "
                    + "at most duration_seconds)"
            ),
            (
                ["pools", 0, "timeline", 1, "end_seconds"], 1e300,
                "key 'pools.[0].timeline.[1].end_seconds' is 1e+300, which no observation gives (above start_seconds "
                    + "and at most duration_seconds)"
            ),
            (
                ["pools", 0, "timeline", 0, "start_seconds"], -1,
                "key 'pools.[0].timeline.[0].start_seconds' is -1, which no observation gives (from 0 to 1.5)"
            ),
            (
                ["process_cpu_cores"], -1,
                "key 'process_cpu_cores' is -1, which no observation gives (from 0 to 4096)"
            ),
            (
                ["pools", 2, "timeline", 0, "shares", "idle"], 2,
                "key 'pools.[2].timeline.[0].shares.idle' is 2, which no observation gives (a fraction from 0 to 1)"
            ),
        ]
    }

    @Test(arguments: 0..<cases.count)
    func anImpossibleFigureIsRefusedInOneLine(index: Int) throws {
        let (path, value, message) = Self.cases[index]
        let dir = try Self.damaged { Self.set(path, value, in: &$0) }
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.appendingPathComponent("observation.json").path, message: message + "; " + Self.damaged)
        ) {
            try RunDirectory(dir).loadObservation()
        }
    }

    /// An observation's machine.json without `machine` is damaged as a sweep's is.
    @Test func aMachineJSONWithoutTheMachineIsRefused() throws {
        let dir = try Self.damaged("machine.json") { Self.set(["machine"], nil, in: &$0) }
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.appendingPathComponent("machine.json").path,
                message: "key 'machine' missing; expected the schema in results/README.md")
        ) {
            try RunDirectory(dir).loadObservation()
        }
    }

    /// The fixture itself loads: the checks refuse damage, not observations; so does every
    /// recording's estimate (Tests/Fixtures/observe), real processes' figures.
    @Test(arguments: ["c-pool", "cpython-threads", "pg-backends"])
    func realObservationsPass(recording: String) throws {
        #expect(ObservationValues.firstFault(try RunDirectory(Self.fixture).loadObservation().observation) == nil)
        let record = try ProcRecording.decode(
            Data(contentsOf: ReportFixtures.fixture("observe/\(recording).json"))
        ).record
        for settings in [
            EstimatorSettings(), EstimatorSettings(throughputPerSecond: 180, latencySeconds: 0.04),
            EstimatorSettings(throughputPerSecond: 1e-6), EstimatorSettings(throughputPerSecond: 1e9),
        ] {
            let observation = ObservationEstimator.estimate(record, settings: settings)
            #expect(!observation.pools.isEmpty)
            #expect(ObservationValues.firstFault(observation) == nil, "\(recording) \(settings)")
        }
    }
}
