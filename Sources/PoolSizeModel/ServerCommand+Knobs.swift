import Foundation

extension ServerCommand {
    /// The placeholders of `line` other than poolsize's own (`{size}`, `{port}`, `{pid}`): a
    /// chain's knobs (`{workers}`, `{threads}`).
    package static func knobPlaceholders(
        in line: String, parameter: PoolSizeError.Parameter = .server
    ) throws(PoolSizeError) -> Set<String> {
        try placeholderNames(in: line, parameter: parameter).filter { Placeholder(rawValue: $0) == nil }
    }

    /// Every placeholder `line` holds, poolsize's own too.
    package static func placeholderNames(
        in line: String, parameter: PoolSizeError.Parameter = .server
    ) throws(PoolSizeError) -> Set<String> {
        var found: Set<String> = []
        for word in try ShellWords.split(line, parameter: parameter) {
            for case let .placeholder(name) in pieces(word) { found.insert(name) }
        }
        return found
    }

    /// `line` with each knob of `values` written in (`{workers}` → `2`) and every other
    /// placeholder and literal brace left as written, so the result is a template again: a
    /// chain's row, whose remaining knob is written `{size}` by giving it the value "{size}".
    package static func filling(
        _ line: String, knobs values: [String: String], parameter: PoolSizeError.Parameter = .server
    ) throws(PoolSizeError) -> String {
        let words = try ShellWords.split(line, parameter: parameter)
        return ShellWords.join(
            words.map { word in
                pieces(word).map { piece in
                    switch piece {
                    case let .text(text): return text.replacingOccurrences(of: "{", with: "{{")
                    case let .placeholder(name): return values[name] ?? "{\(name)}"
                    }
                }.joined()
            })
    }
}
