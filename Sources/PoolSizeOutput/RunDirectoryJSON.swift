import Foundation
import PoolSizeModel

/// The parts of a run directory's JSON files (results/README.md) that `plan --from` and
/// `compare` read. Keys match whatever their spelling: `run_id`, `runID` and `runId` are one key,
/// so runs written before the snake_case schema still load. Everything is optional; callers
/// decide what they cannot do without.
enum RunDirectoryJSON {
    /// `machine.json`.
    struct Machine: Decodable {
        var runID: String?
        var machine: Facts?
        var workload: Workload?
        enum CodingKeys: String, CodingKey { case runID = "runid", machine, workload }

        struct Facts: Decodable {
            var cores: Cores?
            var cpuModel: String?
            enum CodingKeys: String, CodingKey { case cores, cpuModel = "cpumodel" }
        }

        struct Cores: Decodable {
            var affinity: Int?
            var cgroupQuota: Int?
            var override: Int?
            var effective: Int?
            enum CodingKeys: String, CodingKey { case affinity, cgroupQuota = "cgroupquota", override, effective }

            /// `effective` as written, or derived as `CoreCount.effective` derives it (older runs).
            var resolved: Int? {
                if let effective { return effective }
                if let override { return override }
                return affinity.map { max(1, min($0, cgroupQuota ?? $0)) }
            }
        }

        struct Workload: Decodable {
            var name: String?
            var cpuMicroseconds: Double?
            var waitMicroseconds: Double?
            var criticalMicroseconds: Double?
            var jitter: String?
            enum CodingKeys: String, CodingKey {
                case name, jitter
                case cpuMicroseconds = "cpumicroseconds", waitMicroseconds = "waitmicroseconds", criticalMicroseconds = "criticalmicroseconds"
            }
        }
    }

    /// `lowload.json`.
    struct LowLoad: Decodable {
        var cpuMicrosecondsPerTask: Double?
        var waitMicrosecondsPerTask: Double?
        enum CodingKeys: String, CodingKey { case cpuMicrosecondsPerTask = "cpumicrosecondspertask", waitMicrosecondsPerTask = "waitmicrosecondspertask" }
    }

    /// `recommendation.json` (the best combination's keys, at the top level).
    struct Recommendation: Decodable {
        var workload: String?
        var cores: Int?
        var kneePoolSize: Int?
        var formulaQueueCountExact: Double?
        var waitCPURatioLower: Double?
        var waitCPURatioUpper: Double?
        var cpuMicrosecondsPerTask: Double?
        var waitMicrosecondsPerTask: Double?
        enum CodingKeys: String, CodingKey {
            case workload, cores
            case kneePoolSize = "kneepoolsize", formulaQueueCountExact = "formulaqueuecountexact"
            case waitCPURatioLower = "waitcpuratioci95lower", waitCPURatioUpper = "waitcpuratioci95upper"
            case cpuMicrosecondsPerTask = "cpuuspertask", waitMicrosecondsPerTask = "waituspertask"
        }
    }

    /// Decodes `url`, or nil when the file does not exist. A file that exists but is not the
    /// JSON expected is an error naming it.
    static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws(PoolSizeError) -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .invalidInput(path: url.path, message: "cannot be read")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in FoldedKey(path.last!.stringValue) }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .invalidInput(path: url.path, message: "field '\(field)' has the wrong type; expected the schema in results/README.md")
        } catch {
            throw .invalidInput(path: url.path, message: "not valid JSON; expected the schema in results/README.md")
        }
    }

    /// A key lowercased with `_` and `-` removed: `run_id`, `runID` → `runid`.
    struct FoldedKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key.lowercased().filter { $0 != "_" && $0 != "-" } }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }
}
