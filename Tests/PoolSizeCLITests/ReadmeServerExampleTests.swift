import Foundation
import PoolSizeModel
import Testing

/// README.md's `sweep --server` example, kept as it runs (issue 45, item 4): its output left
/// out measured rows (the rules' sizes among them) and the warning its own `--repeat 1`
/// prints, with nothing to say so. The output shown is a real run's, and every line it leaves
/// out is marked by a `…` line where it would be: the table's rows, checked against the sizes
/// the example measures, and the warning, which must be shown. The run's figures are not
/// asserted: they depend on the machine.
@Suite(.serialized) struct ReadmeServerExampleTests {
    /// The README's example: the command of the indented `$ poolsize sweep --server` line with
    /// its `\` continuation joined, and the output lines shown under it up to the blank line.
    static func example() throws -> (command: String, output: [String]) {
        let text = try String(
            contentsOf: ServerGuideExampleTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("    $ poolsize sweep --server ") })
        var command = ""
        var index = start
        while true {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            command += trimmed.hasSuffix("\\") ? String(trimmed.dropLast()) : trimmed
            index += 1
            if !trimmed.hasSuffix("\\") { break }
        }
        let output = lines[index...].prefix { $0.hasPrefix("    ") }.map { String($0.dropFirst(4)) }
        return (String(command.dropFirst(2)), output)
    }

    /// The table's rows as shown: each row's size, nil for a `…` line among or around them,
    /// from the line after the header to the first line that is neither.
    static func shownRows(_ output: [String]) throws -> [Int?] {
        let header = try #require(output.firstIndex { $0.hasPrefix("size  throughput/s") })
        var rows: [Int?] = []
        for line in output[(header + 1)...] {
            if line == "…" {
                rows.append(nil)
            } else if let size = line.split(separator: " ").first.flatMap({ Int($0) }) {
                rows.append(size)
            } else {
                break
            }
        }
        return rows
    }

    /// Sizes of `measured` that `rows` leaves out with no `…` where they would be; rows shown
    /// that were not measured, or out of order, are returned too.
    static func unmarked(_ rows: [Int?], measured: [Int]) -> [Int] {
        var missing: [Int] = []
        var next = 0
        var marked = false
        let sizes = measured.sorted()
        for row in rows {
            guard let size = row else {
                marked = true
                continue
            }
            guard let at = sizes[next...].firstIndex(of: size) else { return missing + [size] }
            if !marked { missing += sizes[next..<at] }
            next = at + 1
            marked = false
        }
        if !marked { missing += sizes[next...] }
        return missing
    }

    /// The warning `--repeat 1` prints, as the console writes it.
    static let oneRepetition =
        "warning: One repetition per size: there is no spread to judge the knee against; use --repeat 3 or more."

    /// As written: the sizes it lists are each a row or left out at a `…`, and its `--repeat 1`
    /// warning is shown.
    @Test func theShownOutputMarksWhatItLeavesOut() throws {
        let (command, output) = try Self.example()
        let words = try ShellWords.split(command, parameter: .server)
        let sizes = try #require(words.firstIndex(of: "--sizes").map { words[$0 + 1] })
        let listed = sizes.split(separator: ",").compactMap { Int($0) }
        #expect(Self.unmarked(try Self.shownRows(output), measured: listed).isEmpty, "\(output)")
        #expect(words.contains("--repeat") && words[words.firstIndex(of: "--repeat")! + 1] == "1")
        #expect(output.contains(Self.oneRepetition), "\(output)")
    }

    /// The example runs as written (`poolsize` on PATH) and exits 0; every size its table has
    /// is shown or marked in the README (the rules' sizes too when it runs on the 2 cores the
    /// README was measured on), and the warning it prints for `--repeat 1` is the README's.
    @Test func theExampleRunsAsWrittenAndShowsWhatItPrints() throws {
        let (command, output) = try Self.example()
        let words = try ShellWords.split(command, parameter: .server)
        #expect(words.first == "poolsize")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-readme-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = EndToEndTests.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        let result = try EndToEndTests.run(Array(words.dropFirst()), environment: environment, directory: dir)
        #expect(result.code == 0, "\(result.stderr)")
        let printed = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        var measured = try Self.shownRows(printed).compactMap { $0 }
        if !result.stdout.contains("rules of thumb on 2 cores") {
            let listed = words[words.firstIndex(of: "--sizes")! + 1].split(separator: ",").compactMap { Int($0) }
            measured = measured.filter(listed.contains)
        }
        #expect(Self.unmarked(try Self.shownRows(output), measured: measured).isEmpty, "\(printed)")
        #expect(printed.contains(Self.oneRepetition), "\(printed)")
        #expect(ServerGuideExampleTests.serverProcesses(in: dir).isEmpty, "a server outlived the example")
    }
}
