/// A server sweep as its plan records it: the server's command and URL as written (the URL's
/// credentials masked), the requests kept in flight and how long a server may take to answer.
/// What runs is built from the flags; this is what machine.json keeps, what `--resume` compares
/// and what the report shows, so it holds no secret.
package struct ServerSetup: Sendable, Equatable, Codable {
    /// The command line that starts the server, placeholders unfilled.
    package var command: String
    /// The URL loaded and probed, `{port}` unfilled, credentials masked.
    package var url: String
    /// Requests the load driver keeps in flight, one connection each.
    package var connections: Int
    /// How long a started server may take to answer with a 2xx before the trial fails.
    package var readyTimeoutSeconds: Double
    /// Whether each size restarts the server or a command resizes it.
    package var sizing: ServerSizing
    /// The user's load tool and how its output was read (`load`, then each `parse` after
    /// ` --parse `), when it loaded the server instead of poolsize's driver; nil for the driver.
    package var loadTool: String?
    /// The row of a chain of pools this sweep is (`workers=2`), nil for a server sweep of its
    /// own: a row measures only its cells, the chain's rules of thumb being the chain's.
    package var chainRow: String?
    /// The signal that stopped the server (`INT`), when it was not SIGTERM.
    package var stopSignal: String?

    /// A setup as recorded.
    package init(
        command: String, url: String, connections: Int, readyTimeoutSeconds: Double, sizing: ServerSizing = .restart
    ) {
        self.sizing = sizing
        self.command = command
        self.url = url
        self.connections = connections
        self.readyTimeoutSeconds = readyTimeoutSeconds
    }
}
