import PoolSizeModel
import PoolSizeProcess

/// A server a `ServerTrialMeasurer` started and saw answer: the size it was started with, its
/// process and the request for the URL on its port.
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
}
