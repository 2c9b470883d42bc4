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
        ("", "error: --exec: is empty; give a command, e.g. --exec 'gzip -c data.bin'"),
        ("echo 'open", "error: --exec: has an unterminated ' quote; close it"),
        ("echo trailing\\", "error: --exec: ends with a backslash; escape something after it or remove it"),
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
