import Foundation

/// Stable JSON for result files: snake_case keys, sorted, pretty-printed, trailing newline.
/// Every object written carries `schema_version` (each element, for an array), so a reader
/// can tell the layout without guessing from the keys present.
package enum JSONExport {
    /// The layout version of every JSON file and output. Raised when a key changes meaning
    /// or disappears; adding keys does not raise it (readers ignore keys they do not know).
    package static let schemaVersion = 1

    package static func serialize<T: Encodable>(_ value: T) -> String {
        encode(Versioned(value: value))
    }

    /// An array: each element carries the version (the array itself cannot).
    package static func serialize<T: Encodable>(_ values: [T]) -> String {
        encode(values.map { Versioned(value: $0) })
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// `value`'s own keys plus `schema_version`, in one object.
struct Versioned<T: Encodable>: Encodable {
    let value: T

    enum Keys: String, CodingKey { case schemaVersion }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(JSONExport.schemaVersion, forKey: .schemaVersion)
    }
}
