import Foundation

/// A PostgreSQL server of a test's own, made and stopped by scripts/pg-cluster.sh (the one
/// way tests and benchmarks get one): `initdb` into a temporary directory, started on a free
/// port of 127.0.0.1 (its unix socket in that directory too), optionally a database `bench`
/// filled by `pgbench -i`; `stop()` stops it and removes the directory. As root the script runs
/// the server as the `postgres` user (PostgreSQL refuses root). A server that cannot be started
/// throws with the script's own message, so the test fails saying why, never skips.
final class PostgresServer {
    /// The directory holding initdb and pg_ctl: on PATH, or the newest /usr/lib/postgresql/N/bin.
    static let bin: URL? = {
        if let initdb = NginxProcess.executable("initdb"), NginxProcess.executable("pg_ctl") != nil {
            return initdb.resolvingSymlinksInPath().deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map {
            root.appendingPathComponent("\($0)/bin")
        }.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path) }
    }()
    static let pgbench: URL? = NginxProcess.executable("pgbench") ?? bin?.appendingPathComponent("pgbench")
    static let runuser = NginxProcess.executable("runuser")
    /// The script that makes and stops the cluster.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster.sh")

    /// initdb, pg_ctl and pgbench are there, and the server can be run as someone other than root.
    static var available: Bool {
        guard let bin, let pgbench, FileManager.default.isExecutableFile(atPath: pgbench.path),
            FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path)
        else { return false }
        return geteuid() != 0 || (runuser != nil && getpwnam("postgres") != nil)
    }

    /// The cluster's directory (its data, log and socket), made by the script.
    let directory: URL
    let port: Int
    /// The database `pgbench -i` filled, nil when none was asked for.
    let database: String?
    private var started = true
    var data: String { directory.appendingPathComponent("data").path }

    /// Creates and starts the server, with a database `bench` of pgbench's tables at `scale`
    /// when given, and room for `maxConnections` (the script's 200 when nil); throws with the
    /// script's message (it cleans up after itself) when it cannot.
    init(pgbenchScale scale: Int? = nil, maxConnections: Int? = nil) throws {
        let arguments =
            ["start"] + (scale.map { ["--scale", String($0)] } ?? ["--no-init"])
            + (maxConnections.map { ["--max-connections", String($0)] } ?? [])
        let output = try Self.run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path] + arguments, seconds: 240)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let dir = values["PGCLUSTER_DIR"], let port = values["PGPORT"].flatMap(Int.init) else {
            throw NSError(
                domain: "pg-cluster.sh", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "pg-cluster.sh start printed no directory and port: \(output)"])
        }
        directory = URL(fileURLWithPath: dir)
        self.port = port
        database = scale == nil ? nil : values["PGDATABASE"]
    }

    /// The postmaster's pid, from the first line of postmaster.pid.
    var postmaster: Int32? {
        (try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8))?.split(separator: "\n").first
            .flatMap { Int32($0) }
    }

    /// Stops the server and removes its directory. Idempotent.
    func stop() {
        guard started else { return }
        started = false
        _ = try? Self.run(URL(fileURLWithPath: "/bin/bash"), [Self.script.path, "stop", directory.path], seconds: 90)
        if FileManager.default.fileExists(atPath: directory.path), let postmaster, kill(postmaster, 0) == 0 {
            kill(postmaster, SIGKILL)
        }
    }

    deinit { stop() }

    /// Runs `executable`, stdin from /dev/null; returns its stdout, throws with its stderr on a
    /// non-zero exit or when it overran `seconds`. posix_spawn and waitpid rather than
    /// Foundation's Process: pg_ctl leaves the postmaster running as a daemon, which inherits
    /// what Process watches for its child's exit, and Process then waits as long as the server
    /// runs; the output goes to files for the same reason.
    static func run(_ executable: URL, _ arguments: [String], seconds: Double) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(atPath: scratch.path + ".out")
            try? FileManager.default.removeItem(atPath: scratch.path + ".err")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch.path + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.path + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw POSIXError(.ETIMEDOUT)
            }
            usleep(20_000)
        }
        let output = (try? String(contentsOfFile: scratch.path + ".out", encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: scratch.path + ".err", encoding: .utf8)) ?? ""
        // Exited normally with status 0: the low 7 bits (the signal) and the exit code both 0.
        guard status == 0 else {
            throw NSError(
                domain: executable.lastPathComponent, code: Int(status),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "\(arguments.joined(separator: " ")) failed (\(status)): \(errors.suffix(600))"
                ])
        }
        return output
    }

    /// The titles of the postmaster's children now.
    func childTitles() -> [String] {
        guard let postmaster else { return [] }
        let children =
            (try? String(contentsOfFile: "/proc/\(postmaster)/task/\(postmaster)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
                .replacingOccurrences(of: "\0", with: " ")
        }
    }
}
