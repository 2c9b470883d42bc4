import PoolSizeModel

/// The pool inside the user's server (`--server`): the command that starts it with each size,
/// the request its load sends, and how the load is made (poolsize's driver, or the user's tool).
package struct ServerTask: Sendable, Equatable, Codable {
    /// The command that starts the server, with `{size}` and `{port}`.
    package var command: String
    /// The request the load sends, and whose 2xx says the server is ready.
    package var request: RequestTask
    /// A command that sets the running server's pool to `{size}` instead of a restart, or
    /// `signals` (`signalsResize`): SIGTTIN and SIGTTOU to the server's process, its workers
    /// counted in /proc.
    package var resize: String?
    /// The `resize` that sends signals instead of running a command.
    package static let signalsResize = "signals"
    /// How long a resized server is given before it is measured (when nil: 2 s after a command,
    /// none after signals, whose workers are counted).
    package var settleSeconds: Double?
    /// How long a started server may take to answer with a 2xx.
    package var readyTimeoutSeconds: Double = 30
    /// The signal that stops the server (`ServerStopSignal`'s names: `INT`, `SIGQUIT`); nil:
    /// SIGTERM.
    package var stopSignal: String?
    /// Requests the driver keeps in flight; nil for the default (twice the largest size, at least 64).
    package var connections: Int?
    /// The user's own load tool, run once per trial instead of the driver.
    package var loadTool: LoadToolTask?
    /// The PostgreSQL database behind the server (a libpq URL or key=value string), watched
    /// over each trial's window; nil: none.
    package var database: String?
    /// A chain's knobs as written (`workers=1,2,4`, `pool=threads`), one per `{name}` of the
    /// command; nil for one pool's server.
    package var knobs: [String]?
    /// Which knobs multiply to a chain's cell's connections (`workers*pool+2`).
    package var databaseConnections: String?

    /// The server `command` starts, loaded at `request`.
    package init(command: String, request: RequestTask) {
        self.command = command
        self.request = request
    }

    /// What a run records: commands and the request with credentials masked, and whether any was.
    package var recorded: (task: ServerTask, withheld: Bool) {
        masking { copy in
            copy.command = Secrets.commandText(copy.command)
            copy.resize = copy.resize.map(Secrets.commandText)
            copy.request = copy.request.recorded.task
            copy.loadTool = copy.loadTool?.recorded.task
            if let database = copy.database, !Secrets.passwords(inConninfo: database).isEmpty {
                copy.database = Secrets.conninfo(database)
            }
        }
    }
}
