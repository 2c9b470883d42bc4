import PoolSizeModel
import Testing

@Suite struct ShellWordsTests {
    @Test(arguments: [
        ("gzip -c data.bin", ["gzip", "-c", "data.bin"]),
        ("  grep   -c \"a b\"  file ", ["grep", "-c", "a b", "file"]),
        ("sh -c 'echo $HOME; exit 3'", ["sh", "-c", "echo $HOME; exit 3"]),
        (#"printf "%s\n" it\'s"#, ["printf", #"%s\n"#, "it's"]),
        (#"a "\"q\"" 'x''y' """#, ["a", #""q""#, "xy", ""]),
    ])
    func splitsAsAShellWouldWithoutOne(line: String, words: [String]) throws {
        #expect(try ShellWords.split(line) == words)
    }

    @Test(arguments: [
        ("", "error: `command`: is empty; give a command, e.g. `command` 'gzip -c data.bin'"),
        ("echo 'open", "error: `command`: has an unterminated ' quote; close it"),
        ("echo trailing\\", "error: `command`: ends with a backslash; escape something after it or remove it"),
    ])
    func badLinesAreOneLineErrors(line: String, message: String) {
        do {
            _ = try ShellWords.split(line)
            Issue.record("split")
        } catch {
            #expect(error.description == message && error.exitCode == 64)
        }
    }
}

extension ShellWordsTests {
    /// Messages echo a command as it can be typed again: `sh -c 'sleep 1; exit 3'`, not the
    /// words joined with spaces (`sh -c sleep 1; exit 3`, which a shell reads as three commands).
    @Test(arguments: [
        (["gzip", "-c", "data.bin"], "gzip -c data.bin"),
        (["sh", "-c", "echo disk full >&2; exit 3"], "sh -c 'echo disk full >&2; exit 3'"),
        (["printf", "it's", ""], #"printf 'it'\''s' ''"#),
        (["echo", "a\u{1B}[31mb\nc"], "echo 'a\u{1B}[31mb\nc'"),
        (["/usr/bin/env", "X=1", "a,b:c@d%e+f"], "/usr/bin/env X=1 a,b:c@d%e+f"),
    ])
    func joinQuotesWhatAShellWouldSplit(words: [String], line: String) throws {
        #expect(ShellWords.join(words) == line)
        #expect(try ShellWords.split(line) == words, "split reads it back as the same words")
    }
}
