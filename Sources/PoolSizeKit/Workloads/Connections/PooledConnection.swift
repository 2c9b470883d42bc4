/// A connection a workload's tasks reuse, one task at a time (a libpq connection, a libcurl
/// handle with its kept-alive socket), held in a `ConnectionFreeList`.
package protocol PooledConnection: AnyObject, Sendable {
    /// Whether it can serve another task; a broken one is closed and replaced.
    var isUsable: Bool { get }
    /// Closes it; called once it will not be used again.
    func close()
}
