import Foundation
import PoolSizeModel

/// The JSON of run directories: written by `JSONExport` (snake_case keys, `nan`/`inf` for
/// undefined numbers) and read back here with the inverse rules, so what is written is what
/// is read.
package enum RunDirectoryJSON {
    /// Decodes `text`; `path` names the file in errors.
    package static func decode<T: Decodable>(_ type: T.Type, from text: String, path: String) throws(PoolSizeError) -> T
    {
        // A file from a newer poolsize may mean something else by the same keys: refuse it
        // rather than misread it. Files without the key predate it and read as version 1.
        if let version = (try? JSONSerialization.jsonObject(with: Data(text.utf8))).flatMap({
            ($0 as? [String: Any])?["schema_version"] as? Int
        }),
            version > JSONExport.schemaVersion
        {
            throw .invalidInput(
                path: path,
                message:
                    "was written by a newer poolsize (schema_version \(version); this one reads \(JSONExport.schemaVersion)); upgrade poolsize to read it"
            )
        }
        do {
            return try decoder.decode(T.self, from: Data(text.utf8))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidInput(
                path: path,
                message:
                    "key '\(Self.path(context.codingPath + [key]))' missing; expected the schema in results/README.md")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .invalidInput(
                path: path,
                message:
                    "key '\(Self.path(context.codingPath))' has the wrong type; expected the schema in results/README.md"
            )
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidInput(
                path: path,
                message:
                    "key '\(Self.path(context.codingPath))' has an unusable value; expected the schema in results/README.md"
            )
        } catch {
            throw .invalidInput(path: path, message: "not valid JSON; expected the schema in results/README.md")
        }
    }

    /// Keys are matched by their snake_case form: `run_id`, and the `runID` of runs written
    /// before the files were snake_cased, both reach the property `runID` (whose coding key
    /// is `runId`, the camel form of `run_id`).
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in NormalizedKey(camel(snake(path.last!.stringValue))) }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `waitCPURatio` → `wait_cpu_ratio`, as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
    /// does: a word starts at an uppercase letter that follows a lowercase letter or a digit, or
    /// that starts a lowercase run after an acronym. Keys already in snake_case are unchanged.
    static func snake(_ key: String) -> String {
        let characters = Array(key)
        var out = ""
        for (i, c) in characters.enumerated() {
            if c.isUppercase && i > 0 {
                let previous = characters[i - 1]
                let nextIsLower = i + 1 < characters.count && characters[i + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    out.append("_")
                }
            }
            out += c.lowercased()
        }
        return out
    }

    /// `wait_cpu_ratio` → `waitCpuRatio`, as `convertFromSnakeCase` does.
    static func camel(_ key: String) -> String {
        let words = key.split(separator: "_", omittingEmptySubsequences: false)
        guard words.count > 1 else { return key }
        return String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? snake($0.stringValue) }.joined(separator: ".")
    }

    struct NormalizedKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(_ key: String) { stringValue = key; intValue = nil }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
    }
}
