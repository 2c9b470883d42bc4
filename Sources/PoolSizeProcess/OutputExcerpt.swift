import Foundation
import PoolSizeModel

/// The last lines a child printed, for a one-line message about how it ended: a server that
/// would not start, a load tool whose trial is invalid.
package enum OutputExcerpt {
    /// The last `count` non-empty lines of the first of `streams` that has any (stderr before
    /// stdout, say), each trimmed, cut to `characters`, escaped (`TerminalText`) and quoted,
    /// joined on one line: `its last lines on stderr: 'a' | 'b'`; `it printed nothing` when no
    /// stream has a line.
    package static func lastLines(
        _ streams: [(name: String, text: String)], count: Int = 3, characters: Int = .max
    ) -> String {
        for (name, text) in streams {
            let lines = text.split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            guard !lines.isEmpty else { continue }
            let shown = lines.suffix(count).map { line in
                "'\(TerminalText.escape(String(line.prefix(characters))))\(line.count > characters ? "…" : "")'"
            }
            return "its last lines on \(name): \(shown.joined(separator: " | "))"
        }
        return "it printed nothing"
    }
}
