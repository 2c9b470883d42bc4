import Foundation
import PoolSizeModel

extension Sweep {
    /// What a sweep sizes and where its tasks come from, as one value: a built-in workload, a
    /// command or an HTTP request run on poolsize's own pools, the pool inside a server started
    /// at each size, a load tool's own concurrency, or a connection pool against PostgreSQL.
    /// The library builds what measures each trial from it; `poolsize sweep`'s flags are one way
    /// to write it, and a run directory records it (credentials masked) so that `--resume` can
    /// rebuild the sweep from the record alone.
    ///
    /// ```swift
    /// let target = Sweep.Target.server("gunicorn --threads {size} -b 127.0.0.1:{port} app:app",
    ///                                  url: "http://127.0.0.1:{port}/")
    /// let result = try Sweep(.init(name: "app", sizes: .explicit([1, 2, 4, 8])), target: target).run()
    /// ```
    public struct Target: Sendable, Equatable, Codable {
        /// What is sized, and its settings.
        package var kind: Kind
        /// The longest one task may run: a command, a request, a statement (as the server's
        /// statement_timeout), a load tool's run. Nil: 60 s.
        package var taskTimeoutSeconds: Double?
        /// Where a file-IO workload writes its scratch files; the system's temporary directory when nil.
        package var scratchDirectory: String?

        /// A target of `kind` with the default task timeout.
        package init(_ kind: Kind) {
            self.kind = kind
        }

        /// A built-in workload (`cpu`, `io`, `mixed`, `file-io`) or a YAML spec file's, on
        /// poolsize's own pools.
        public static func workload(_ nameOrPath: String) -> Target { Target(.workload(nameOrPath)) }

        /// The pool inside a server: `command` starts it, with `{size}` where it takes its pool
        /// size and `{port}` where it takes a port (poolsize picks a free one); it is started
        /// at each size, loaded with GET requests of `url` (with `{port}` when the command has
        /// it) by poolsize's driver once it answers with a 2xx, and stopped.
        public static func server(_ command: String, url: String) -> Target {
            Target(.server(ServerTask(command: command, request: RequestTask(url: url))))
        }

        /// The pool inside a server resized in place: `command` starts it once (without
        /// `{size}`), and `resize` sets its pool to `{size}` before each trial (`{pid}` is the
        /// server's process id), or is `"signals"`: SIGTTIN and SIGTTOU sent to the server's
        /// process until it has `{size}` children (gunicorn's arbiter, Puma's cluster master),
        /// counted in /proc. The server gets `settle` after each resize (nil: 2 s after a
        /// command, none after signals).
        public static func server(
            _ command: String, url: String, resize: String, settle: Duration? = nil
        ) -> Target {
            var task = ServerTask(command: command, request: RequestTask(url: url))
            task.resize = resize
            task.settleSeconds = settle.map { Double(Configuration.milliseconds($0)) / 1000 }
            return Target(.server(task))
        }

        /// A chain of pools in one server: `command` holds a `{name}` for each of `knobs`, each
        /// written as `poolsize sweep --sizes` writes it (`"workers=1,2,4"`, `"threads=2...24:2"`,
        /// or `"pool=threads"`: the same value as another knob), and `{port}`. Every cell of the
        /// knobs is started and loaded at `url` (past 15 cells the space is searched); with
        /// `database` (a libpq URL), the cells that would open more connections than it allows
        /// are left out, `connections` saying which knobs multiply to a cell's
        /// (`"workers*pool"`), and its backends are watched over every trial. The result's
        /// `recommendedSizes` is the answer and `chainSummary` says what binds there.
        public static func chain(
            _ command: String, url: String, knobs: [String], database: String? = nil, connections: String? = nil
        ) -> Target {
            var task = ServerTask(command: command, request: RequestTask(url: url))
            task.knobs = knobs
            task.database = database
            task.databaseConnections = connections
            return Target(.server(task))
        }

        /// A load tool's own concurrency: `command` (with `{size}`) runs once per trial and its
        /// figures are read as `parse` says (`wrk`, `pgbench`, or regular expressions with named
        /// groups such as `(?<throughput>…)`).
        public static func loadTool(_ command: String, parse: [String]) -> Target {
            Target(.loadTool(LoadToolTask(command: command, parse: parse)))
        }

        /// A connection pool against PostgreSQL: N connections made with `connection` (a libpq
        /// URL or `key=value` string; PGPASSWORD and ~/.pgpass apply), each running `sql`, a
        /// pgbench script, one transaction after another; `variables` are set for the whole run
        /// as pgbench's `-D` sets them. The sizes stay within the server's connections. A
        /// closed loop's connections are driven by a thread per core without blocking, as
        /// pgbench drives them; with `threadPerConnection` (and in an open loop) each is held by
        /// one of the pool's N threads and used with blocking calls, as a JDBC or psycopg pool
        /// uses them, so the pool's own threads are measured too.
        public static func postgres(
            _ connection: String, sql: String, variables: [String: Int64] = [:], threadPerConnection: Bool = false
        ) -> Target {
            var task = PostgresTask(connection: connection, script: sql)
            task.variables = variables
            if threadPerConnection { task.client = .threads }
            return Target(.postgres(task))
        }

        /// The longest one task may run before it is stopped and counted as failed; for
        /// PostgreSQL, each connection's statement_timeout. Nil: 60 s.
        public var taskTimeout: Duration? {
            get { taskTimeoutSeconds.map { .milliseconds(Int(($0 * 1000).rounded())) } }
            set { taskTimeoutSeconds = newValue.map { Double(Configuration.milliseconds($0)) / 1000 } }
        }
    }
}
