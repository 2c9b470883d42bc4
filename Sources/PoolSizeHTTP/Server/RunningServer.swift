import PoolSizeModel
import PoolSizeProcess

/// A server a `ServerTrialMeasurer` started and saw answer: the size it was started with, its
/// process and the request for the URL on its port.
struct RunningServer {
    /// The pool size the server was started with.
    let size: Int
    /// The server, leading its own session.
    let process: ServerProcess
    /// The URL's request, `{port}` filled in.
    let target: HTTPTarget
}
