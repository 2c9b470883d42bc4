import Foundation
import PoolSizeModel
import Testing

/// `sweep --postgres`: a connection pool in this process, each thread holding one libpq
/// connection to a PostgreSQL the test starts (scripts/pg-cluster.sh), running a pgbench
/// script. Flags that cannot apply, a script outside the subset, a server that is not there
/// and SQL the server refuses are one line and exit 64 before any trial; a transaction the
/// server fails is a failure with its SQLSTATE, never throughput; the password is in no file.
@Suite(.serialized) struct PostgresSweepCommandTests {
    static let selectOnly =
        "\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;"

    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "poolsize-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(arguments: [
        (
            ["--sql", "SELECT 1;"],
            "error: --sql: is the transaction of a --postgres sweep; add --postgres URL or drop --sql"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db"],
            "error: --postgres: needs the transaction to run: add --sql 'SELECT …;' or --sql-file FILE (a pgbench script)"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--sql-file", "x.sql"],
            "error: --sql-file: and --sql both give the transaction; keep one"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--exec", "true"],
            "error: --exec: names another task; a --postgres sweep's task is its --sql transaction, drop --exec"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--define", "scale"],
            "error: --define: takes NAME=INTEGER (scale=10), got 'scale'; this subset's variables are integers"
        ),
        (
            ["--client", "async", "--workload", "io"],
            "error: --client: is the transaction of a --postgres sweep; add --postgres URL or drop --client"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--pool", "adaptive"],
            "error: --pool: sets the pool of --client threads (a pool thread per connection): add --client threads or drop --pool"
        ),
        (
            [
                "--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--client", "async", "--qos",
                "utility",
            ],
            "error: --qos: sets the pool of --client threads (a pool thread per connection): add --client threads or drop --qos"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--client", "fibers"],
            "error: --client: takes async (a thread per core drives the connections without blocking, as pgbench) or threads (a thread per connection), got 'fibers'"
        ),
        (
            [
                "--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;", "--client", "async",
                "--arrival-rate", "100",
            ],
            "error: --client: async keeps every connection busy (a closed loop); an open loop's arrivals wait for a pool's threads: give threads or drop it"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql", "\\gset\nSELECT 1;"],
            "error: --sql: line 1: \\gset is not supported: this subset of pgbench's scripts runs SQL, \\set (integers, :variables, + - * / %, random(lo, hi)) and \\sleep"
        ),
        (
            ["--postgres", "postgresql://127.0.0.1:1/db", "--sql-file", "/nonexistent/x.sql"],
            "error: --sql-file: cannot read /nonexistent/x.sql (No such file or directory); give a readable pgbench script"
        ),
    ])
    func aFlagOrScriptThatCannotApplyIsOneLine(arguments: [String], message: String) {
        let result = runCLI(["sweep"] + arguments + ["--sizes", "1,2"])
        #expect(result.errors == [message])
        #expect(result.code == 64)
    }

    /// A script is read as pgbench -f reads it: from a pipe (/dev/stdin) too, once; the
    /// script's own error then shows it was read. A directory is refused with the reason, and a
    /// stream that never ends past 1 MiB.
    @Test func aScriptFromAPipeIsRead() throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let piped = try BinaryRun.run(
            [
                "-c", "printf 'SELECT 1;\\n\\\\sleep :y ms\\n' | exec \"$0\" \"$@\"",
                EndToEndTests.binary.path, "sweep", "--postgres", "postgresql://127.0.0.1:1/db", "--sql-file",
                "/dev/stdin", "--sizes", "1,2",
            ], executable: shell)
        #expect(piped.code == 64)
        #expect(
            piped.stderr
                == "error: --sql-file: line 2: \\sleep reads :y, which nothing sets before it; \\set it first\n")
        let directory = runCLI([
            "sweep", "--postgres", "postgresql://127.0.0.1:1/db", "--sql-file", "/tmp", "--sizes", "1,2",
        ])
        #expect(
            directory.errors == ["error: --sql-file: cannot read /tmp (Is a directory); give a readable pgbench script"]
        )
        #expect(directory.code == 64)
        let endless = runCLI([
            "sweep", "--postgres", "postgresql://127.0.0.1:1/db", "--sql-file", "/dev/zero", "--sizes", "1,2",
        ])
        #expect(
            endless.errors == [
                "error: --sql-file: /dev/zero holds more than 1 MiB, more than any transaction's script; give a readable pgbench script"
            ])
    }

    /// On the terminal a meta-command reads as the script has it: `\gset`, not `\\gset`.
    @Test func aMetaCommandIsShownAsWritten() throws {
        let dir = try Self.scratch("gset")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("gset.sql")
        try "\\gset\nSELECT 1;\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try EndToEndTests.run([
            "sweep", "--postgres", "postgresql://127.0.0.1:1/db", "--sql-file", script.path, "--sizes", "1,2",
        ])
        #expect(result.code == 64)
        #expect(
            result.stderr
                == "error: --sql-file: line 1: \\gset is not supported: this subset of pgbench's scripts runs SQL, \\set (integers, :variables, + - * / %, random(lo, hi)) and \\sleep\n"
        )
    }

    /// No server on the port: libpq's reason, the fix, and no password in the line.
    @Test func anUnreachableServerIsOneLineWithoutThePassword() {
        let result = runCLI([
            "sweep", "--postgres", "postgresql://app:hunter2@127.0.0.1:1/db", "--sql", "SELECT 1;", "--sizes", "1,2",
        ])
        #expect(result.code == 64)
        #expect(result.errors.count == 1)
        let line = result.errors.first ?? ""
        #expect(line.hasPrefix("error: --postgres: cannot connect: "), "\(line)")
        #expect(line.hasSuffix("; start the server, or correct the host and port"), "\(line)")
        #expect(!line.contains("hunter2"))
    }

    /// A connection string libpq cannot parse: its message quotes the part it stopped at, which
    /// holds the password; the line shows it masked.
    @Test(arguments: [
        (
            "postgresql://postgres:S3cr3tPW@[::1",
            "error: --postgres: cannot connect: end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://REDACTED@[::1\"; correct the connection URL"
        ),
        (
            "postgresql://postgres:S3cr3tPW%ZZ@127.0.0.1:1/x",
            "error: --postgres: cannot connect: invalid percent-encoded token: \"REDACTED\"; correct the connection URL"
        ),
    ])
    func anUnparsableURLIsOneLineWithoutThePassword(url: String, line: String) {
        let result = runCLI(["sweep", "--postgres", url, "--sql", "SELECT 1;", "--sizes", "1,2"])
        #expect(result.code == 64)
        #expect(result.errors == [line])
    }

    /// Against a real server: an unknown database, SQL the server refuses (its message and
    /// SQLSTATE, before any trial), sizes past max_connections, a transaction that fails at
    /// every run (the SQLSTATE in the line); then a sweep of pgbench's select-only script whose
    /// trials are recorded, the connection pool's rules of thumb among them, with the URL's
    /// password in no file of the run.
    @Test func aRealServerChecksTheScriptAndRunsTheSweep() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 20)
        defer { server.stop() }
        let url = "postgresql://postgres:hunter2@127.0.0.1:\(server.port)/bench"
        let unknown = runCLI([
            "sweep", "--postgres", "postgresql://postgres@127.0.0.1:\(server.port)/nope", "--sql", "SELECT 1;",
            "--sizes", "1,2",
        ])
        #expect(unknown.code == 64)
        #expect(
            unknown.errors.first?.hasSuffix("; create the database (createdb NAME) or name one that exists") == true,
            "\(unknown.errors)")
        let syntax = runCLI([
            "sweep", "--postgres", url, "--sql", "SELEC abalance FROM pgbench_accounts;", "--sizes", "1",
        ])
        #expect(
            syntax.errors == [
                "error: --sql: the server refuses SELEC abalance FROM pgbench_accounts: syntax error at or near \"SELEC\" (SQLSTATE 42601); fix the statement"
            ])
        let table = runCLI(["sweep", "--postgres", url, "--sql", "SELECT 1 FROM nowhere;", "--sizes", "1"])
        #expect(
            table.errors == [
                "error: --sql: the server refuses SELECT 1 FROM nowhere: relation \"nowhere\" does not exist (SQLSTATE 42P01); fix the statement"
            ])
        let many = runCLI(["sweep", "--postgres", url, "--sql", "SELECT 1;", "--sizes", "1,500"])
        #expect(many.code == 64)
        #expect(many.errors.first?.hasPrefix("error: --sizes: asks for 500 connections; the server allows ") == true)
        let dir = try Self.scratch("postgres")
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = try EndToEndTests.run([
            "sweep", "--postgres", url, "--sql", "SELECT 1 / (random() * 0)::int;", "--sizes", "1,2", "--quiet",
            "--out", dir.appendingPathComponent("failing").path,
        ])
        #expect(failing.code != 0)
        #expect(failing.stderr.contains("SQLSTATE 22012: division by zero"), "\(failing.stderr)")
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--postgres", url, "--sql", Self.selectOnly, "--cores", "2", "--sizes", "1,2,4", "--repeat", "1",
            "--trial-ms",
            "300", "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows
        // The sizes asked for, and the connection pool's rules: HikariCP's 5 on 2 cores, and the
        // server's 16 (20 less 3 reserved for superusers and the one the sweep's pg_stat_activity
        // sampler holds).
        #expect(Set(rows.compactMap { $0["pool_size"] }) == ["1", "2", "4", "5", "16"])
        for row in rows {
            #expect((row["throughput_per_s"].flatMap(Double.init) ?? 0) > 0, "\(row)")
            #expect(row["errors"] == "0", "\(row)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: run.path)
        for file in files {
            let text = (try? String(contentsOf: run.appendingPathComponent(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("hunter2"), "\(file) holds the password")
        }
        let machine = try String(contentsOf: run.appendingPathComponent("machine.json"), encoding: .utf8)
        #expect(
            machine.contains("PostgreSQL: postgresql://REDACTED@127.0.0.1:\(server.port)/bench"), "\(machine)")
    }
}
