/// One setting of a chain of pools a sweep sizes together (`workers=1,2,3,4`): a name that stands
/// as `{name}` in the server's command, and the values it takes, its own or another knob's.
package struct Knob: Equatable, Sendable, Codable {
    /// What a knob takes in each cell.
    package enum Values: Equatable, Sendable {
        /// These sizes, ascending, each with every value of the other free knobs.
        case list([Int])
        /// The value another knob has in the same cell (`pool=threads`: a connection per thread).
        case tied(String)
        /// Sizes poolsize chooses from the knob's layer and the cores (`KnobSpace.resolvingAuto`),
        /// before the chain's cells are made.
        case auto
    }

    /// The name, as `{name}` is written in the command.
    package let name: String
    /// Its sizes, or the knob it follows.
    package let values: Values

    package init(name: String, values: Values) {
        self.name = name
        self.values = values
    }

    /// As it is typed: `workers=1,2,4`, `pool=threads`.
    package var written: String {
        switch values {
        case .list(let sizes): "\(name)=\(sizes.map(String.init).joined(separator: ","))"
        case .tied(let other): "\(name)=\(other)"
        case .auto: "\(name)=auto"
        }
    }

    /// Whether the knob has sizes of its own (listed, or `auto` still to be chosen).
    package var isFree: Bool {
        if case .tied = values { return false }
        return true
    }

    /// Written `tied_to` by the snake-case encoder every JSON file goes through, and read back
    /// by the snake-case decoder as `tiedTo`: a key spelled `tied_to` here would never be found.
    private enum CodingKeys: String, CodingKey {
        case name, sizes, tiedTo, auto
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if let other = try container.decodeIfPresent(String.self, forKey: .tiedTo) {
            values = .tied(other)
        } else if try container.decodeIfPresent(Bool.self, forKey: .auto) == true {
            values = .auto
        } else {
            values = .list(try container.decode([Int].self, forKey: .sizes))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch values {
        case .list(let sizes): try container.encode(sizes, forKey: .sizes)
        case .tied(let other): try container.encode(other, forKey: .tiedTo)
        case .auto: try container.encode(true, forKey: .auto)
        }
    }
}
