/// What a server sweep's trial saw of the server's processes over its window, beside the CPU,
/// threads and memory every trial records: how many did work, and the runtime with a global
/// interpreter lock they run, as `poolsize observe` recognises and names it (`KnownProgram`);
/// and, when the sweep watches the database behind the server, what its backends did.
package struct ServerFigures: Equatable, Sendable, Codable {
    /// The server's processes that did work in the window (1 ms of CPU a second or more, as
    /// observe counts them): the workers, not an idle supervisor beside them.
    package var processes: Int
    /// The runtime every working process runs, when it has a global interpreter lock, as observe
    /// names its kind and version (`cpython 3.11`, `ruby 3.2`); nil for any other server.
    package var interpreterLock: String?
    /// The database behind the server over the same window (its backends' states and waits,
    /// their CPU when local); nil when the sweep watched none.
    package var database: DatabaseFigures?
    /// Whether poolsize's driver opened a new connection for each request (the server's
    /// processes share its listening socket); nil when a load tool loaded the server, or for a
    /// trial recorded before this was.
    package var connectionPerRequest: Bool?

    /// Figures as measured.
    package init(
        processes: Int, interpreterLock: String? = nil, database: DatabaseFigures? = nil,
        connectionPerRequest: Bool? = nil
    ) {
        self.processes = processes
        self.interpreterLock = interpreterLock
        self.database = database
        self.connectionPerRequest = connectionPerRequest
    }
}
