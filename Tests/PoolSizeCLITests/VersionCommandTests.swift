import Foundation
import Testing

/// `poolsize --version` names the version and the commit it was built from (the package's
/// test, scripts/package-test.sh, checks a stamped commit end to end).
@Suite struct VersionCommandTests {
    /// After a subcommand too: ArgumentParser offers the flag there, and it must say the same.
    @Test(arguments: [["--version"], ["plan", "--version"]])
    func versionNamesTheCommit(arguments: [String]) throws {
        let run = try BinaryRun.run(arguments, timeout: 60)
        #expect(run.code == 0, "stderr: \(run.stderr)")
        let line = run.stdout.trimmingCharacters(in: .newlines)
        #expect(
            line.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)/) != nil,
            "printed: \(line)")
        #expect(run.stderr.isEmpty)
    }

    /// The help lists `--version`, so the man page and completions generated from it do too.
    @Test func helpListsVersion() throws {
        let run = try BinaryRun.run(["--help"], timeout: 60)
        #expect(run.code == 0)
        #expect(run.stdout.contains("--version"))
    }
}
