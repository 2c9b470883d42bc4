import Foundation
import PoolSizeModel
import Testing

/// Every `poolsize sweep --server` example of docs/guide/server.md, run as written: `poolsize`
/// found on PATH (the built binary's directory first), from a directory where the guide's
/// relative paths (Examples/servers/…) lead to the repository's, so its results land there and
/// not in the repository. Each must exit 0 with a recommendation, its rules of thumb and no
/// server left. No figure is asserted: those depend on the machine (docs/benchmarks/server.md).
@Suite(.serialized) struct ServerGuideExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The guide's example commands: indented lines from `poolsize sweep --server` on, with their
    /// `\` continuations joined.
    static func examples() throws -> [String] {
        try commands(in: "docs/guide/server.md", startingWith: "    poolsize sweep --server")
    }

    /// The commands of the repository's `file` whose first line starts with `prefix`, each with
    /// its `\` continuations joined (the lines trimmed, the prefix's indentation dropped).
    static func commands(in file: String, startingWith prefix: String) throws -> [String] {
        let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
        var commands: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, line.hasPrefix(prefix) { current = "" }
            guard var command = current else { continue }
            command += trimmed.hasSuffix("\\") ? String(trimmed.dropLast()) : trimmed
            if trimmed.hasSuffix("\\") {
                current = command
            } else {
                commands.append(command)
                current = nil
            }
        }
        return commands
    }

    /// Fails naming the install when gunicorn is missing: scripts/install-test-servers.sh
    /// installs it, so a test that needs it never skips.
    static func requireGunicorn() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/gunicorn"),
            "needs gunicorn: scripts/install-test-servers.sh (apt-get install gunicorn)")
    }

    @Test func theGuideHasItsFiveExamples() throws {
        let examples = try Self.examples()
        #expect(examples.count == 5)
        #expect(examples.contains { $0.contains("{rate}") && $0.contains("--arrival-rate") })
        #expect(examples.contains { $0.contains("--resize") } && examples.contains { $0.contains("--load") })
        #expect(examples.contains { $0.contains("--arrival-rate") })
    }

    @Test(arguments: 0..<5)
    func eachExampleRunsAsWritten(index: Int) throws {
        let examples = try Self.examples()
        try #require(index < examples.count)
        let words = try ShellWords.split(examples[index], parameter: .server)
        #expect(words.first == "poolsize")
        let dir = try PostgresServer.guideDirectory(linking: ["Examples"])
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = EndToEndTests.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        let before = Set(Self.serverProcesses(in: dir))
        let result = try EndToEndTests.run(Array(words.dropFirst()), environment: environment, directory: dir)
        // The open loop's objective is a latency: with other processes taking the cores (the
        // suite's other tests run beside this one), no size may meet it. That is a true answer
        // when the sweep says so and names the other load as the cause (exit 5).
        let busy =
            result.code == 5 && examples[index].contains("--latency-slo")
            && result.stdout.contains("\nno size measured met the objective")
            && result.stdout.contains("warning: The machine was busy: other processes used")
        if !busy {
            #expect(result.code == 0, "\(examples[index]): \(result.stderr)")
            #expect(result.stdout.contains("\nrecommended queue count: "), "\(result.stdout)")
        }
        #expect(result.stdout.contains("rules of thumb on "), "\(result.stdout)")
        #expect(Set(Self.serverProcesses(in: dir)).subtracting(before).isEmpty, "a server outlived the example")
    }

    /// The guide's `--load` alone example: the indented block from the line that starts a
    /// PostgreSQL (scripts/pg-cluster.sh) to the one that stops it, its lines as written.
    static func loadAloneExample() throws -> [String] {
        try PostgresServer.guideBlocks("docs/guide/server.md").first ?? []
    }

    /// The `--load` alone example runs as written in bash from a directory whose scripts/ is the
    /// repository's: the cluster it starts is stopped by its own last line, whatever the sweep
    /// did (and by the test when the block did not get there), and the sweep recommends from
    /// pgbench's figures. PostgreSQL missing fails the test: .ci/run installs it.
    @Test func theLoadAloneExampleRunsAsWritten() throws {
        try #require(
            PostgresServer.available,
            "needs PostgreSQL (initdb, pg_ctl), pgbench and a postgres user: apt-get install postgresql")
        let block = try Self.loadAloneExample()
        try #require(block.count == 3, "\(block)")
        #expect(block[1].hasPrefix("poolsize sweep --load 'pgbench -n -c {size}"))
        #expect(block[2] == "scripts/pg-cluster.sh stop \"$PGCLUSTER_DIR\"")
        let dir = try PostgresServer.guideDirectory(linking: ["scripts"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, cluster) = try PostgresServer.runGuideBlock(block, in: dir)
        defer { PostgresServer.stopLeft(cluster) }
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nrecommended queue count: "), "\(result.stdout)")
        #expect(result.stdout.contains("low load: not measured"), "\(result.stdout)")
        #expect(result.stdout.contains("stopped: 0"), "\(result.stdout)")
        #expect(cluster.map { !FileManager.default.fileExists(atPath: $0) } == true, "the cluster's directory is gone")
    }

    /// Processes of the servers an example started from `directory`: by their command line, and
    /// by their working directory, so another suite's servers running beside are not counted.
    static func serverProcesses(in directory: URL) -> [String] {
        let wanted = directory.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard Int(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else {
                return nil
            }
            let line = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            guard line.contains("serve --workers") || line.contains("wsgi_app:app") || line.contains("rack_app.ru"),
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/cwd"),
                URL(fileURLWithPath: cwd).resolvingSymlinksInPath().path == wanted
            else { return nil }
            return entry
        }
    }
}
