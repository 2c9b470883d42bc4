import Synchronization

/// An atomic counter alone on its cache line. A trial's threads bump it once per task; held
/// inline in the object whose pool, clocks and workload every task reads, each bump would take
/// that line from the other cores and make their next reads miss.
final class PaddedCounter: Sendable {
    private let before: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
    /// The count.
    let value = Atomic<UInt64>(0)
    private let after: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}
