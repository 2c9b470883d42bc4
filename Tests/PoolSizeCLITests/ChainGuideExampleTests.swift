import Foundation
import Testing

/// docs/guide/chain.md's four `poolsize sweep` examples, run as written by bash (the database
/// examples' `$PGPORT` expanded from the cluster this test starts, as the guide's `eval` line
/// would set it), from a directory where the guide's relative paths lead to the repository's.
/// Each must exit 0 with a recommended cell; the second must leave out the cells past the 12
/// connections; the third must name the row lock as the binding layer and count each cell's
/// connections at the database; the fourth (threads × a HikariCP pool) must pick the cell that
/// serves most.
@Suite(.serialized) struct ChainGuideExampleTests {
    /// The guide's commands: indented lines from `poolsize sweep` on, `\` continuations joined.
    static func examples() throws -> [String] {
        try ServerGuideExampleTests.commands(in: "docs/guide/chain.md", startingWith: "    poolsize sweep ")
    }

    /// Runs `command` with bash in a scratch directory linked to the repository's Examples;
    /// `inspect` is given the run's output and the directory before it is removed.
    static func run(
        _ command: String, environment extra: [String: String] = [:],
        inspect: (String, URL) throws -> Void = { _, _ in }
    ) throws -> (code: Int32, stdout: String, stderr: String) {
        let dir = try PostgresServer.guideDirectory(linking: ["Examples"])
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["PATH"] = EndToEndTests.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        let result = try BinaryRun.run(
            ["-c", command], executable: URL(fileURLWithPath: "/bin/bash"), environment: environment, directory: dir)
        try inspect(result.stdout, dir)
        return (result.code, result.stdout, result.stderr)
    }

    @Test func theGuideHasItsFourExamples() throws {
        let examples = try Self.examples()
        #expect(examples.count == 4)
        #expect(examples.dropFirst().allSatisfy { $0.contains("--database ") })
    }

    @Test func theServeChainRunsAsWritten() throws {
        let command = try #require(try Self.examples().first)
        let result = try Self.run(command)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nrecommended sizes: loops="), "\(result.stdout)")
        // 400 requests/s a worker thread: four beat two and one by far, whatever the loops.
        #expect(result.stdout.contains(" workers=4  ("), "\(result.stdout)")
    }

    @Test func theDatabaseChainRunsAsWritten() throws {
        let command = try #require(try Self.examples().dropFirst().first)
        let cluster = try PostgresServer(maxConnections: 13)
        defer { cluster.stop() }
        let result = try Self.run(command, environment: ["PGPORT": String(cluster.port)])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nrecommended sizes: workers="), "\(result.stdout)")
        for cell in ["workers=2 threads=8 pool=8", "workers=3 threads=8 pool=8"] {
            #expect(result.stdout.contains("excluded: \(cell): workers × pool needs at least "), "\(result.stdout)")
        }
        #expect(!result.stdout.contains("excluded: workers=3 threads=4"), "\(result.stdout)")
    }

    /// 8 threads and 4 connections serve about 4 / 5.2 ms = 770 requests/s; 2 threads at most
    /// 2 / 6.2 ms = 320, and one connection 1 / 5.2 ms = 190.
    @Test func theJVMChainRunsAsWritten() throws {
        let command = try #require(try Self.examples().last)
        let cluster = try PostgresServer(maxConnections: 12)
        defer { cluster.stop() }
        let result = try Self.run(command, environment: ["PGPORT": String(cluster.port)])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nrecommended sizes: pool=4 threads=8  ("), "\(result.stdout)")
        #expect(result.stdout.contains("connections: pool per cell; the database allows 11"), "\(result.stdout)")
    }

    /// Every request updates the same row and holds its lock through a 5 ms query: about 190
    /// requests/s in every cell, the other backends waiting on Lock. The database's watch counts
    /// each cell's connections as the database saw them (workers × pool: the service fills its
    /// pools at start) and the binding layer is the row lock.
    @Test func theRowLockChainRunsAsWritten() throws {
        let command = try #require(try Self.examples().dropFirst(2).first)
        let cluster = try PostgresServer(maxConnections: 20)
        defer { cluster.stop() }
        var peaks: [String] = []
        var snapshotCounts: [Int] = []
        let result = try Self.run(command, environment: ["PGPORT": String(cluster.port)]) { stdout, dir in
            // The run directory is the output's last line.
            guard let last = stdout.split(separator: "\n").last.map(String.init) else { return }
            let run = last.hasPrefix("/") ? URL(fileURLWithPath: last) : dir.appendingPathComponent(last)
            let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
            let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let header = try #require(lines.first).map(String.init)
            let peak = try #require(header.firstIndex(of: "db_peak_connections"))
            peaks = lines.dropFirst().map { String($0[peak]) }
            // Each row's trials carry the database's figures beside the server's.
            let trials = try String(
                contentsOf: run.appendingPathComponent("rows/workers-1/trials.csv"), encoding: .utf8)
            let rows = trials.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let columns = try #require(rows.first).map(String.init)
            let snapshots = try #require(columns.firstIndex(of: "db_snapshots"))
            let processes = try #require(columns.firstIndex(of: "server_processes"))
            snapshotCounts = rows.dropFirst().filter { !$0[processes].isEmpty }.map { Int($0[snapshots]) ?? 0 }
        }
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("\nbinding layer: the row locks in the database: more connections wait on Lock"),
            "\(result.stdout)")
        #expect(result.stdout.contains("\ndatabase at the answer: "), "\(result.stdout)")
        #expect(peaks == ["4", "8", "8", "16"])
        #expect(!snapshotCounts.isEmpty && snapshotCounts.allSatisfy { $0 > 10 }, "\(snapshotCounts)")
    }
}

extension ChainGuideExampleTests {
    /// README.md's chain example is the guide's first, which `theServeChainRunsAsWritten` runs.
    @Test func theReadmeShowsTheGuidesFirstExample() throws {
        let command = try #require(
            try ServerGuideExampleTests.commands(
                in: "README.md", startingWith: "    $ poolsize sweep --server 'poolsize serve --threads {loops}"
            ).first)
        #expect(command.dropFirst(2) == (try Self.examples().first ?? "")[...])
    }
}
