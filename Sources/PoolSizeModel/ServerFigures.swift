/// What a server sweep's trial saw of the server's processes over its window, beside the CPU,
/// threads and memory every trial records: how many did work, and the runtime with a global
/// interpreter lock they run, as `poolsize observe` recognises and names it (`KnownProgram`).
package struct ServerFigures: Equatable, Sendable, Codable {
    /// The server's processes that did work in the window (1 ms of CPU a second or more, as
    /// observe counts them): the workers, not an idle supervisor beside them.
    package var processes: Int
    /// The runtime every working process runs, when it has a global interpreter lock, as observe
    /// names its kind and version (`cpython 3.11`, `ruby 3.2`); nil for any other server.
    package var interpreterLock: String?

    /// Figures as measured.
    package init(processes: Int, interpreterLock: String? = nil) {
        self.processes = processes
        self.interpreterLock = interpreterLock
    }
}
