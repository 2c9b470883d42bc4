/// One size of a server sweep as the server saw it: means over its valid trials.
package struct ServerRow: Equatable, Sendable {
    /// The pool size the server was started with.
    package var size: Int
    /// Answered requests a second.
    package var throughputPerSecond: Double
    /// Cores the server's processes kept busy.
    package var cores: Double
    /// The server's CPU per answered request, µs.
    package var cpuMicrosecondsPerRequest: Double
    /// The most threads its processes had at a window's end.
    package var threads: Int
    /// Its processes' resident memory at a window's end, KiB.
    package var rssKilobytes: Double
    /// The load driver's CPU per request, µs.
    package var driverCPUMicrosecondsPerRequest: Double
}
