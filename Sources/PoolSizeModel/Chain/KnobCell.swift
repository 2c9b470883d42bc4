/// One point of a chain's space: a value for every knob, in the order the knobs were given.
package struct KnobCell: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The knobs' names, in the order given.
    package let names: [String]
    /// Each knob's value, ties filled in.
    package let values: [String: Int]

    package init(names: [String], values: [String: Int]) {
        precondition(Set(names) == Set(values.keys), "a cell has a value for every knob and no other")
        self.names = names
        self.values = values
    }

    /// The value of `knob`.
    package subscript(knob: String) -> Int {
        guard let value = values[knob] else { preconditionFailure("no knob \(knob) in \(self)") }
        return value
    }

    /// `workers=2 threads=8`, the way the cell is named in a table or a message.
    package var description: String { names.map { "\($0)=\(self[$0])" }.joined(separator: " ") }

    /// As recommendation.json writes it: `{"threads": 8, "workers": 3}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// Read back from the object `encode` writes; the order of the names is the keys' sorted
    /// order, since a JSON object keeps none.
    package init(from decoder: any Decoder) throws {
        let values = try decoder.singleValueContainer().decode([String: Int].self)
        self.init(names: values.keys.sorted(), values: values)
    }
}
