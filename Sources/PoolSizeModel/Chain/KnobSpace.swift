/// The knobs of a chain of pools sized together (several `sizes` entries of the form
/// `name=sizes`): `workers=1,2,3,4`, `threads=2,4,8,16`, `pool=threads`. Every free knob's sizes
/// meet every other's; a tied knob takes the value of the knob it names in each cell.
package struct KnobSpace: Equatable, Sendable, Codable {
    /// The knobs, in the order given: the first varies slowest in `cells`.
    package let knobs: [Knob]

    /// Placeholders poolsize fills in itself, so no knob may take their names.
    package static let reservedNames: Set<String> = ["size", "port", "pid"]

    private static let usage = "write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"

    /// The space `entries` (the `sizes` settings as given) describe, or nil when none is of the
    /// form `name=sizes`: then they are one pool's sizes, `{size}` in the command.
    package static func parse(_ entries: [String]) throws(PoolSizeError) -> KnobSpace? {
        let named = entries.filter { $0.contains("=") }
        if named.isEmpty { return nil }
        if let plain = entries.first(where: { !$0.contains("=") }) {
            throw .invalidParameter(
                .sizes,
                message:
                    "'\(TerminalText.escape(plain))' names no knob, beside knobs given as name=sizes; a chain's sizes are each knob's: \(usage)"
            )
        }
        var knobs: [Knob] = []
        for entry in entries {
            let knob = try parseEntry(entry)
            if knobs.contains(where: { $0.name == knob.name }) {
                throw .invalidParameter(
                    .sizes, message: "knob \(knob.name) is given twice; give its sizes once (\(knob.name)=1,2,4)")
            }
            knobs.append(knob)
        }
        let space = KnobSpace(checked: knobs)
        try space.checkTies()
        return space
    }

    /// `knobs` as they are, without the checks `parse` makes: a recorded space read back.
    package init(checked knobs: [Knob]) {
        self.knobs = knobs
    }

    private static func parseEntry(_ entry: String) throws(PoolSizeError) -> Knob {
        let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        let spec = parts[1].trimmingCharacters(in: .whitespaces)
        guard isName(name) else {
            throw .invalidParameter(
                .sizes,
                message:
                    "'\(TerminalText.escape(name))' is not a knob's name (letters, digits, _ and -, a letter first); \(usage)"
            )
        }
        if reservedNames.contains(name) {
            throw .invalidParameter(
                .sizes,
                message:
                    "{\(name)} is filled in by poolsize, so it cannot be a knob; name each knob after what it sets (workers=1,2,4, threads=2,4,8)"
            )
        }
        if spec.isEmpty {
            throw .invalidParameter(.sizes, message: "knob \(name) has no sizes; \(usage)")
        }
        if let first = spec.first, first.isLetter, spec.lowercased() != "auto" {
            guard isName(spec) else {
                throw .invalidParameter(
                    .sizes, message: "'\(TerminalText.escape(spec))' is neither sizes nor a knob's name; \(usage)")
            }
            if spec == name {
                throw .invalidParameter(
                    .sizes, message: "knob \(name) is tied to itself; give it sizes (\(name)=1,2,4) or another knob")
            }
            return Knob(name: name, values: .tied(spec))
        }
        if spec.lowercased() == "auto" { return Knob(name: name, values: .auto) }
        let selection: SizeSelection
        do throws(PoolSizeError) {
            selection = try SizeSelection.parse(spec)
        } catch {
            guard case let .invalidParameter(parameter, message) = error else { throw error }
            throw .invalidParameter(parameter, message: "knob \(name): \(message)")
        }
        guard case .explicit(let sizes) = selection else {
            throw .invalidParameter(.sizes, message: "knob \(name) has no sizes; \(usage)")
        }
        return Knob(name: name, values: .list(sizes))
    }

    /// The space with each `auto` knob's sizes chosen by `sizes` (given the knob's name).
    package func resolvingAuto(_ sizes: (String) -> [Int]) -> KnobSpace {
        KnobSpace(
            checked: knobs.map { knob in
                guard case .auto = knob.values else { return knob }
                return Knob(name: knob.name, values: .list(sizes(knob.name)))
            })
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    /// Every tie names a knob, and following ties from any knob ends at one with sizes.
    private func checkTies() throws(PoolSizeError) {
        let names = knobs.map(\.name)
        for knob in knobs {
            guard case .tied(let other) = knob.values else { continue }
            guard names.contains(other) else {
                throw .invalidParameter(
                    .sizes,
                    message:
                        "\(knob.written) ties to \(other), which is no knob; the knobs are \(Self.list(names)); give \(other)'s sizes (\(other)=1,2,4) or tie to one of them"
                )
            }
        }
        for knob in knobs {
            var path = [knob.name]
            var current = knob
            while case .tied(let other) = current.values {
                if path.contains(other) {
                    let circle = (path.drop { $0 != other } + [other]).joined(separator: " → ")
                    throw .invalidParameter(
                        .sizes,
                        message: "the ties go round in a circle (\(circle)); give one of these knobs its own sizes")
                }
                path.append(other)
                guard let next = knobs.first(where: { $0.name == other }) else { break }
                current = next
            }
        }
    }

    /// The knob whose sizes `name` takes: itself when free, else the end of its ties.
    package func source(of name: String) -> Knob? {
        var current = knobs.first { $0.name == name }
        var steps = 0
        while let knob = current, case .tied(let other) = knob.values, steps <= knobs.count {
            current = knobs.first { $0.name == other }
            steps += 1
        }
        return current
    }

    /// The knobs with sizes of their own, in the order given.
    package var free: [Knob] { knobs.filter { if case .list = $0.values { true } else { false } } }

    /// The names, in the order given.
    package var names: [String] { knobs.map(\.name) }

    /// Every cell, the first free knob varying slowest, ties filled in.
    package var cells: [KnobCell] {
        var assignments: [[String: Int]] = [[:]]
        for knob in free {
            guard case .list(let sizes) = knob.values else { continue }
            assignments = assignments.flatMap { partial in sizes.map { partial.merging([knob.name: $0]) { $1 } } }
        }
        return assignments.map { assignment in
            var values = assignment
            for knob in knobs where values[knob.name] == nil {
                if let source = source(of: knob.name), let value = assignment[source.name] {
                    values[knob.name] = value
                }
            }
            return KnobCell(names: names, values: values)
        }
    }

    /// How many cells the space has.
    package var cellCount: Int {
        free.reduce(1) { count, knob in
            guard case .list(let sizes) = knob.values else { return count }
            return count * sizes.count
        }
    }

    /// Checks the knobs against the placeholders of the command they fill (`server`): every
    /// knob stands in it, and every placeholder of its own has a knob.
    package func check(placeholders: Set<String>) throws(PoolSizeError) {
        for knob in knobs where !placeholders.contains(knob.name) {
            throw .invalidParameter(
                .sizes,
                message:
                    "knob \(knob.name) has sizes, but \(PoolSizeError.Parameter.server.mention) has no {\(knob.name)}; add {\(knob.name)} where the command takes it, or drop \(knob.name)=…"
            )
        }
        let names = Set(names)
        for placeholder in placeholders.sorted() where !names.contains(placeholder) {
            throw .invalidParameter(
                .sizes,
                message:
                    "{\(TerminalText.escape(placeholder))} in \(PoolSizeError.Parameter.server.mention) has no sizes; add \(TerminalText.escape(placeholder))=2,4,8 (a list) or \(TerminalText.escape(placeholder))=\(knobs[0].name) (another knob's value)"
            )
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
