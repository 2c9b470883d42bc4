@testable import PoolSizeModel
import Testing

/// The terminal's escaping helper, with hostile payloads: nothing a value holds can act on the
/// terminal or break a line.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain text, é and µs", "plain text, é and µs"),
        ("red \u{1B}[31mALERT\u{1B}[0m", "red \\x1b[31mALERT\\x1b[0m"),
        ("bell\u{07}", "bell\\x07"),
        ("over\rwritten", "over\\rwritten"),
        ("two\nlines", "two\\nlines"),
        ("tab\there", "tab\\there"),
        ("title \u{1B}]0;pwned\u{07}", "title \\x1b]0;pwned\\x07"),
        ("C1 \u{9B}2J", "C1 \\x9b2J"),
        ("del\u{7F}", "del\\x7f"),
        ("bidi \u{202E}gnp.exe\u{202C}", "bidi \\u{202E}gnp.exe\\u{202C}"),
        ("isolate \u{2066}x\u{2069}", "isolate \\u{2066}x\\u{2069}"),
        // A backslash is doubled where text could pass for an escape: before n, r, t, x, u,
        // another backslash or a character written out, and last (text may follow it).
        ("forged \\x1b", "forged \\\\x1b"),
        ("forged \\u{202E}", "forged \\\\u{202E}"),
        ("\\\\n", "\\\\\\\\n"),
        ("\\\u{1B}", "\\\\\\x1b"),
        ("ends \\", "ends \\\\"),
        // Elsewhere it is shown as written: pgbench's meta-commands, a regular expression.
        ("\\gset and \\set x 1", "\\gset and \\set x 1"),
        ("(?<throughput>[\\d.]+)\\s", "(?<throughput>[\\d.]+)\\s"),
    ])
    func escapesWhatATerminalWouldActOn(text: String, escaped: String) {
        #expect(TerminalText.escape(text) == escaped)
        #expect(!TerminalText.escape(text).unicodeScalars.contains { TerminalText.needsEscape($0) })
    }

    @Test func anExcerptIsOneLineAndCut() {
        #expect(TerminalText.excerpt("short") == "short")
        #expect(TerminalText.excerpt("first\nsecond") == "first…")
        #expect(TerminalText.excerpt(String(repeating: "x", count: 61)) == String(repeating: "x", count: 60) + "…")
        #expect(TerminalText.excerpt("a\u{1B}b") == "a\\x1bb")
        let megabytes = "2\n" + String(repeating: "3,4\n", count: 500_000)
        #expect(TerminalText.excerpt(megabytes) == "2…")
    }
}
