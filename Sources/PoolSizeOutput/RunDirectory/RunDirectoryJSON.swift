import Foundation
import PoolSizeModel

/// The JSON of run directories: written by `JSONExport` (snake_case keys, `nan`/`inf` for
/// undefined numbers) and read back here with the inverse rules, so what is written is what
/// is read.
package enum RunDirectoryJSON {
    /// Decodes `text`; `path` names the file in errors.
    package static func decode<T: Decodable>(_ type: T.Type, from text: String, path: String) throws(PoolSizeError) -> T
    {
        // Every object JSONExport writes carries its layout's version: a file from a newer
        // poolsize may mean something else by the same keys, and one without the key was not
        // written by poolsize. Refuse both rather than misread them.
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        if let parsed, !(parsed is [String: Any]) {
            throw .invalidInput(
                path: path,
                message:
                    "holds a JSON \(parsed is [Any] ? "array" : "value"), not the object poolsize writes; expected the schema in results/README.md"
            )
        }
        if let object = parsed as? [String: Any] {
            guard let raw = object["schema_version"] else {
                throw .invalidInput(
                    path: path, message: "key 'schema_version' missing; expected the schema in results/README.md")
            }
            guard raw is NSNumber || raw is String,
                let version = (try? JSONDecoder().decode(Versioned.self, from: Data(text.utf8)))?.schema_version
            else {
                throw .invalidInput(
                    path: path,
                    message:
                        "key 'schema_version' has the wrong type (a whole number such as 1); expected the schema in results/README.md"
                )
            }
            guard version >= 1 else {
                throw .invalidInput(
                    path: path,
                    message:
                        "key 'schema_version' is \(version); poolsize writes \(Self.versions) (the file is damaged)")
            }
            if version > JSONExport.schemaVersion {
                throw .invalidInput(
                    path: path,
                    message:
                        "was written by a newer poolsize (schema_version \(version); this one reads \(JSONExport.schemaVersion)); upgrade poolsize to read it"
                )
            }
        }
        let value: T
        do {
            value = try decoder.decode(T.self, from: Data(text.utf8))
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
            // A number JSONSerialization reads but no Swift whole number holds (1e30 where a
            // count belongs) fails the decoder without a coding path: name its key.
            if let parsed, let key = Self.firstHugeNumber(parsed) {
                throw .invalidInput(
                    path: path,
                    message:
                        "key '\(key)' holds a number beyond the whole numbers a run file holds (±2^53); the file is damaged: rerun the sweep"
                )
            }
            throw .invalidInput(path: path, message: "not valid JSON; expected the schema in results/README.md")
        }
        // The one number rule for whole numbers (FiniteNumber.isWhole): a count of Int.min
        // decodes, and then overflows the first subtraction it meets.
        if let (key, whole) = Self.firstOutsideWholeLimit(value) {
            throw .invalidInput(
                path: path,
                message:
                    "key '\(key)' is \(whole), beyond the whole numbers a run file holds (±2^53); the file is damaged: "
                    + "rerun the sweep")
        }
        return value
    }

    /// The versions this poolsize reads: `1`, or `1 to N`.
    static var versions: String {
        JSONExport.schemaVersion == 1 ? "1" : "1 to \(JSONExport.schemaVersion)"
    }

    /// Only the version, read with the decoder's own type rules: a string, a fraction or a
    /// boolean is no version.
    struct Versioned: Decodable {
        // The file's own spelling, read without a key strategy.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let schema_version: Int
    }

    /// The key of the first number in parsed JSON at or beyond 2^53 in magnitude.
    static func firstHugeNumber(_ value: Any, key: String = "") -> String? {
        if let number = value as? NSNumber, !(value is Bool), abs(number.doubleValue) >= Double(FiniteNumber.wholeLimit)
        {
            return key
        }
        if let object = value as? [String: Any] {
            for (name, child) in object.sorted(by: { $0.key < $1.key }) {
                if let found = firstHugeNumber(child, key: key.isEmpty ? name : key + "." + name) { return found }
            }
        }
        if let array = value as? [Any] {
            for (index, child) in array.enumerated() {
                if let found = firstHugeNumber(child, key: key + ".[\(index)]") { return found }
            }
        }
        return nil
    }

    /// The first `Int` in `value`, at any depth, outside `FiniteNumber.wholeLimit`, with the key
    /// (snake_cased) that holds it.
    static func firstOutsideWholeLimit(_ value: Any, key: String = "") -> (key: String, value: Int)? {
        if let whole = value as? Int { return FiniteNumber.isWhole(whole) ? nil : (key, whole) }
        for child in Mirror(reflecting: value).children {
            // Optionals and arrays have children without labels (or `some`): the key stays.
            let label = child.label.flatMap { $0 == "some" || $0.hasPrefix(".") ? nil : snake($0) } ?? key
            if let found = firstOutsideWholeLimit(child.value, key: label) { return found }
        }
        return nil
    }

    /// The inverse of `JSONExport`'s encoder: snake_case keys back to the coding keys they were
    /// written from (`run_id` → `runId`, `wait_cpu_ratio_ci95_lower` → `waitCpuRatioCi95Lower`),
    /// `nan` and `inf` back to numbers. A key the encoder cannot have written (one with an
    /// uppercase letter, such as `cpuMicrosecondsPerTask`) reaches no property, so the file
    /// lacks the snake_case key and is refused; `convertFromSnakeCase` would pass it through to
    /// the property of the same name. (Dictionary keys, such as tier names, are data: neither
    /// the encoder nor a key strategy touches them.)
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in FileKey(path.last!.stringValue) }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// A key of the file, as the coding key it was written from.
    struct FileKey: CodingKey {
        let stringValue: String
        let intValue: Int?

        /// `wait_cpu_ratio` → `waitCpuRatio`, as `convertFromSnakeCase` does; a key with an
        /// uppercase letter → a name no coding key has (it holds a space).
        init(_ key: String) {
            if key.contains(where: \.isUppercase) {
                stringValue = "not snake_case: " + key
            } else {
                let words = key.split(separator: "_", omittingEmptySubsequences: false)
                stringValue =
                    String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            }
            intValue = nil
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }

        init?(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
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

    /// A coding path as the file spells it: `combinations.[0].knee_throughput_per_s`.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? snake($0.stringValue) }.joined(separator: ".")
    }
}
