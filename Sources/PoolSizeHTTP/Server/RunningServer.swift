import PoolSizeModel
import PoolSizeProcess

/// A server a `ServerTrialMeasurer` started and saw answer: the size it was started with, its
/// process, the request for the URL on its port and how the load connects to it.
struct RunningServer {
    /// The pool size the server runs at: the one it was started with, or the last a resize
    /// command set.
    var size: Int
    /// The server, leading its own session.
    let process: ServerProcess
    /// The URL's request, `{port}` filled in.
    let target: HTTPTarget
    /// The port poolsize picked for it; nil when the command names its own.
    let port: Int?
    /// Whether the load opens a new connection for each request (`ServerLifecycle`): for a
    /// server whose processes share its listening socket, where a kept-alive connection stays
    /// on the process that accepted it.
    var connectionPerRequest = false
}
