import Foundation

/// A PostgreSQL server of a test's own: `initdb` into a temporary directory, started with
/// `pg_ctl` on a free port of 127.0.0.1 (its unix socket in that directory too), stopped
/// (`-m immediate`) and removed by `stop()`. The server refuses to run as root; as root every
/// server command runs as the `postgres` user through `runuser`. Every command is bounded in
/// time and killed when it overruns.
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

    /// initdb, pg_ctl and pgbench are there, and the server can be run as someone other than root.
    static var available: Bool {
        guard let bin, let pgbench, FileManager.default.isExecutableFile(atPath: pgbench.path),
            FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path)
        else { return false }
        return geteuid() != 0 || (runuser != nil && getpwnam("postgres") != nil)
    }

    let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("poolsize-pg-\(UUID().uuidString.prefix(8))")
    private(set) var port = 0
    private var started = false
    var data: String { directory.appendingPathComponent("data").path }

    /// Creates and starts the server; throws (after cleaning up) when it cannot.
    init() throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // The postgres user writes the data directory, its log and socket here.
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
            try serverCommand("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"], seconds: 120)
            port = try NginxProcess.freePort()
            let options =
                "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=\(directory.path) "
                + "-c fsync=off -c max_connections=30"
            started = true
            try serverCommand(
                "pg_ctl",
                [
                    "-D", data, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "60", "-o", options,
                    "start",
                ],
                seconds: 90)
        } catch {
            stop()
            throw error
        }
    }

    /// The postmaster's pid, from the first line of postmaster.pid.
    var postmaster: Int32? {
        (try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8))?.split(separator: "\n").first
            .flatMap { Int32($0) }
    }

    /// Stops the server at once and removes its directory. Idempotent.
    func stop() {
        if started {
            try? serverCommand("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"], seconds: 60)
            if let postmaster, kill(postmaster, 0) == 0 { kill(postmaster, SIGKILL) }
            started = false
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a server program from `bin` (through runuser as root), killed after `seconds`.
    func serverCommand(_ name: String, _ arguments: [String], seconds: Double) throws {
        guard let bin = Self.bin else { throw POSIXError(.ENOENT) }
        let program = bin.appendingPathComponent(name).path
        if geteuid() == 0, let runuser = Self.runuser {
            try Self.run(runuser, ["-u", "postgres", "--", program] + arguments, seconds: seconds)
        } else {
            try Self.run(URL(fileURLWithPath: program), arguments, seconds: seconds)
        }
    }

    /// Runs `executable`, output discarded; throws on a non-zero exit or when it overran `seconds`.
    /// posix_spawn and waitpid rather than Foundation's Process: pg_ctl leaves the postmaster
    /// running as a daemon, which inherits what Process watches for its child's exit, and Process
    /// then waits as long as the server runs.
    static func run(_ executable: URL, _ arguments: [String], seconds: Double) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
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
        // Exited normally with status 0: the low 7 bits (the signal) and the exit code both 0.
        guard status == 0 else {
            throw NSError(
                domain: executable.lastPathComponent, code: Int(status),
                userInfo: [NSLocalizedDescriptionKey: "\(arguments.joined(separator: " ")) failed (\(status))"])
        }
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
