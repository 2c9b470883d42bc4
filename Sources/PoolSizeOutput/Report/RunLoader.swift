import CSV
import Foundation
import PoolSizeModel

/// Reads a run directory (results/README.md). `trials.csv` is required; `machine.json`,
/// `lowload.json`, `recommendation.json` and `contention.csv` are used when present and skipped
/// when absent. Per-configuration summaries are computed from the trials (`RunAnalysis`), so a
/// report does not depend on `summary.csv`.
public enum RunLoader {
    public static func load(_ directory: URL) throws(PoolSizeError) -> RunData {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .inputNotFound(path: directory.path, hint: "pass a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        let trialsURL = directory.appendingPathComponent("trials.csv")
        guard let trialsText = try read(trialsURL) else {
            throw .inputNotFound(path: trialsURL.path, hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        }
        let records = try TrialsCSVReader.parse(trialsText, path: trialsURL.path)
        let info: RunInfoFile? = try decode(directory.appendingPathComponent("machine.json"))
        let lowLoad: LowLoadEstimate? = try decode(directory.appendingPathComponent("lowload.json"), snakeCase: true)
        let recommendation: RecommendationFile? = try decode(directory.appendingPathComponent("recommendation.json"))
        let contentionURL = directory.appendingPathComponent("contention.csv")
        let contention = try read(contentionURL).map { text throws(PoolSizeError) in try parseContention(text, path: contentionURL.path) } ?? []
        let runID = info?.runID ?? records.first.map(\.runID).flatMap { $0.isEmpty ? nil : $0 } ?? directory.standardizedFileURL.lastPathComponent
        return RunData(runID: runID, records: records, info: info, lowLoad: lowLoad, recommendation: recommendation, contention: contention)
    }

    /// `contention.csv`: `qos, share, throughput_per_s, effective_nice`.
    public static func parseContention(_ text: String, path: String) throws(PoolSizeError) -> [ContentionShare] {
        do {
            let reader = try CSVReader(string: text, hasHeaderRow: true)
            guard let header = reader.headerRow, header.contains("qos"), header.contains("share") else {
                throw PoolSizeError.invalidInput(path: path, message: "expected the columns qos, share, throughput_per_s, effective_nice")
            }
            var shares: [ContentionShare] = []
            while reader.next() != nil {
                guard let qos = reader["qos"], !qos.isEmpty else { continue }
                guard let share = Double(reader["share"] ?? "") else {
                    throw PoolSizeError.invalidInput(path: path, message: "column 'share' of tier \(qos) is not a number")
                }
                shares.append(ContentionShare(
                    qos: qos, share: share, throughputPerSecond: Double(reader["throughput_per_s"] ?? "") ?? 0,
                    effectiveNice: Int(reader["effective_nice"] ?? "")))
            }
            return shares
        } catch let error as PoolSizeError {
            throw error
        } catch {
            throw .invalidInput(path: path, message: "not CSV: \(error)")
        }
    }

    /// The file's text, or nil when it does not exist.
    static func read(_ url: URL) throws(PoolSizeError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .invalidInput(path: url.path, message: "cannot be read as UTF-8 text: \(ExportManager.reason(error))")
        }
    }

    /// The decoded file, or nil when it does not exist. `snakeCase` for types whose coding keys
    /// are the Swift property names (they were written with `JSONExport`'s snake_case strategy).
    static func decode<T: Decodable>(_ url: URL, snakeCase: Bool = false) throws(PoolSizeError) -> T? {
        guard let text = try read(url) else { return nil }
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(T.self, from: Data(text.utf8))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidInput(path: url.path, message: "key '\(path(context.codingPath + [key]))' missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .invalidInput(path: url.path, message: "key '\(path(context.codingPath))' has the wrong type")
        } catch {
            throw .invalidInput(path: url.path, message: "not valid JSON")
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
