import Foundation
import PoolSize
import Testing

/// Issue 46: a sweep's target is a library value. A run records it with every credential
/// masked (and says so, so that a resume from the record alone asks for them again), reads it
/// back equal, and `Sweep` runs a target whose pool is outside this process.
@Suite struct SweepTargetTests {
    /// The request's user:password, a token in its query, a credential header, a password in a
    /// server's command, a load tool's token, a database's password: each masked, none left.
    @Test func theRecordMasksEveryCredentialAndSaysSo() throws {
        var server = Sweep.Target.server(
            "env PGPASSWORD=hunter2 app --threads {size} --port {port}",
            url: "http://user:pa55@127.0.0.1:{port}/orders?token=T0K&page=2")
        if case var .server(task) = server.kind {
            task.request.headers = ["Authorization: Bearer B34R3R", "Accept: text/plain"]
            task.loadTool = LoadToolTask(command: "wrk --header=X-Api-Key=K3Y http://127.0.0.1:{port}/", parse: ["wrk"])
            server.kind = .server(task)
        }
        let record = TargetRecord(server)
        #expect(record.withheld)
        let text = JSONExport.serialize(record)
        for secret in ["hunter2", "pa55", "T0K", "B34R3R"] {
            #expect(!text.contains(secret), "\(secret) in \(text)")
        }
        guard case let .server(task) = record.target.kind else {
            Issue.record("not a server: \(record.target.kind)")
            return
        }
        #expect(task.command == "env PGPASSWORD=REDACTED app --threads {size} --port {port}")
        #expect(task.request.url == "http://REDACTED@127.0.0.1:{port}/orders?token=REDACTED&page=2")
        #expect(task.request.headers == ["Authorization: REDACTED", "Accept: text/plain"])

        let database = TargetRecord(.postgres("host=127.0.0.1 port=5432 password=s3cret dbname=shop", sql: "SELECT 1;"))
        #expect(database.withheld)
        #expect(!JSONExport.serialize(database).contains("s3cret"))

        // A chain's database behind its server (chain.json records it in the server's target).
        var chain = Sweep.Target.server("srv -w {workers} --port {port}", url: "http://127.0.0.1:{port}/")
        if case var .server(task) = chain.kind {
            task.database = "postgresql://app:pgs3cret@127.0.0.1:5432/shop"
            chain.kind = .server(task)
        }
        let chained = TargetRecord(chain)
        #expect(chained.withheld)
        #expect(!JSONExport.serialize(chained).contains("pgs3cret"))
        if case let .server(task) = chained.target.kind {
            #expect(task.database == "postgresql://REDACTED@127.0.0.1:5432/shop")
        }
        var named = chain
        if case var .server(task) = named.kind {
            task.database = "postgresql://app@127.0.0.1:5432/shop"
            named.kind = .server(task)
        }
        #expect(!TargetRecord(named).withheld, "a user name is no credential")
    }

    /// Without a credential the record is the target itself, and it reads back equal from the
    /// run directory's target.json, whatever its kind.
    @Test func aTargetWithoutCredentialsReadsBackEqual() throws {
        var postgres = Sweep.Target.postgres(
            "postgresql://app@127.0.0.1:5432/shop", sql: "\\set id random(1, 100)\nSELECT :id;",
            variables: ["scale": 10])
        postgres.taskTimeout = .milliseconds(2500)
        let targets: [Sweep.Target] = [
            .workload("io"), .server("srv --threads {size} --port {port}", url: "http://127.0.0.1:{port}/"),
            .server(
                "srv --port {port}", url: "http://127.0.0.1:{port}/", resize: "srvctl {pid} {size}", settle: .seconds(1)
            ),
            .loadTool("pgbench -c {size} -T 2 bench", parse: ["pgbench"]), postgres,
            .postgres("postgresql://app@127.0.0.1:5432/shop", sql: "SELECT 1;", threadPerConnection: true),
        ]
        for target in targets {
            let record = TargetRecord(target)
            #expect(!record.withheld)
            #expect(record.target == target)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-target-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try JSONExport.serialize(record).write(
                to: directory.appendingPathComponent("target.json"), atomically: true, encoding: .utf8)
            #expect(try TargetRecord.load(RunDirectory(directory)) == record)
        }
        #expect(postgres.taskTimeout == .milliseconds(2500))
    }

    /// A load tool's own concurrency swept through the library: the tool (a shell script that
    /// prints 100 requests a second per unit of its concurrency) runs once per trial at each
    /// size, its figures are the trials', and the plan names the pool as the tool's.
    @Test func theLibrarySweepsALoadTool() throws {
        let script = "echo \"rate: $((100 * $0)) in 1s\""
        var configuration = Sweep.Configuration(name: "tool", sizes: .explicit([1, 2, 4]), repetitions: 1)
        configuration.warmupTrials = 0
        let sweep = try Sweep(
            configuration,
            target: .loadTool(
                "sh -c '\(script)' {size}", parse: ["rate: (?<throughput>[0-9]+) in (?<duration>[0-9]+s)"]))
        let result = try sweep.run()
        #expect(result.plan.pools == [.loadTool])
        let measured = Dictionary(
            uniqueKeysWithValues: result.records.map { ($0.poolSize, $0.throughputPerSecond) })
        #expect(measured == [1: 100, 2: 200, 4: 400])
    }

    /// The target is checked when the sweep is made, before any trial: a server that is not on
    /// this machine, a load tool without its reader.
    @Test func aTargetThatCannotRunIsRefusedWhenTheSweepIsMade() {
        let configuration = Sweep.Configuration(name: "x", sizes: .explicit([1, 2]))
        #expect(
            throws: PoolSizeError.invalidParameter(
                .httpURL,
                message:
                    "a server sweep loads a server on this machine (127.0.0.1, ::1 or localhost), whose processes it measures; run poolsize on the server's host"
            )
        ) {
            try Sweep(configuration, target: .server("sh -c 'exit 0' {size}", url: "http://192.0.2.1:8080/"))
        }
        #expect(
            throws: PoolSizeError.invalidParameter(
                .parse,
                message:
                    "is needed with `load` to read the tool's figures: wrk, pgbench, locust, k6, or a regular expression with a (?<throughput>…) group"
            )
        ) {
            try Sweep(configuration, target: .loadTool("wrk -c {size} http://127.0.0.1:8080/", parse: []))
        }
    }
}
