/// Text bound for a terminal: error lines on stderr, the console summary and the tables on
/// stdout, observe's thread and pool names. A value from a command, its stderr, a run directory,
/// another process's /proc entries or a flag may hold control characters that a terminal acts
/// on (ESC starts a sequence that recolours, moves the cursor or retitles the window; BEL
/// rings; CR overwrites the line; LF breaks a one-line error or a table row), or bidirectional
/// overrides that reorder what is shown (CVE-2021-42574). Each is shown as an escape instead,
/// and a backslash that could be read as one's start as `\\`, so that no escape can be forged:
/// what the terminal displays is what the value holds. Any other backslash stays as written, so
/// that a pgbench `\gset` or a regular expression's `\d` reads as the user typed it. The
/// terminal's counterpart of `CSVField.escape` and `ReportInline.literal`.
package enum TerminalText {
    /// `text` with every control character written out (`\n`, `\r`, `\t`, else `\x1b`; the
    /// bidirectional controls as `\u{202E}`), and each backslash doubled that comes last or
    /// before `\`, `n`, `r`, `t`, `x`, `u` or a character written out.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || needsEscape($0) }) else { return text }
        var out = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\":
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                out += next.map { !startsEscape($0) } == true ? "\\" : "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where !needsEscape(scalar): out.unicodeScalars.append(scalar)
            case _ where scalar.value <= 0xFF:
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// A value quoted in a one-line message: its first line, at most `limit` characters (then
    /// `…`), escaped. A damaged file's cell can hold the rest of the file (an unterminated
    /// quote makes the CSV parser read on to the end).
    package static func excerpt(_ text: some StringProtocol, limit: Int = 60) -> String {
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        let cut = line.count > limit || line.count < text.count
        return escape(String(line.prefix(limit))) + (cut ? "…" : "")
    }

    /// Whether a backslash before `scalar` would read as an escape `escape` writes (or, a
    /// backslash itself, as `\\`).
    static func startsEscape(_ scalar: Unicode.Scalar) -> Bool {
        "\\nrtxu".unicodeScalars.contains(scalar) || needsEscape(scalar)
    }

    /// C0, DEL and C1 (Unicode category Cc), and the bidirectional embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
