import PoolSizeKit
import PoolSizeModel

/// What one open-loop run of `HTTPLoadDriver` measured: the window's answers as the closed loop
/// counts them, the arrivals as the in-process open loop records them, and how often the driver
/// itself held an arrival back because every connection was busy.
package struct HTTPOpenLoopResult: Equatable, Sendable {
    /// The window's answers: 2xx answers finished in it (throughput), failures, the driver's
    /// CPU, and `latency` from the moment each request was started on a connection (its time at
    /// the server, without any wait for a connection or a late start).
    package var load: HTTPLoadResult
    /// The arrivals whose intended time fell in the window: their latencies from the intended
    /// time (failures included, as the in-process loop counts them; one not finished when the
    /// run stopped with the time it had waited), the backlog each saw, and how late the driver
    /// noticed each was due.
    package var raw: OpenLoopRaw
    /// The window's arrivals that found every connection busy and waited in the driver for one.
    package var waitedForConnection: Int
    /// The longest of those waits, ns.
    package var longestConnectionWaitNanoseconds: UInt64
    /// Mean time of the window's 2xx answers on their connection, seconds: the server's time
    /// per request, its queue included.
    package var serviceSeconds: Double
    /// Most requests on connections at once.
    package var peakInFlight: Int

    /// The figures as measured.
    package init(
        load: HTTPLoadResult, raw: OpenLoopRaw, waitedForConnection: Int, longestConnectionWaitNanoseconds: UInt64,
        serviceSeconds: Double, peakInFlight: Int
    ) {
        self.load = load
        self.raw = raw
        self.waitedForConnection = waitedForConnection
        self.longestConnectionWaitNanoseconds = longestConnectionWaitNanoseconds
        self.serviceSeconds = serviceSeconds
        self.peakInFlight = peakInFlight
    }
}
