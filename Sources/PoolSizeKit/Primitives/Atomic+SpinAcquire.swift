import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Atomic where Value == Bool {
    /// Takes the flag as a test-and-test-and-set lock: spins on a plain load (stays in the local
    /// cache) and only tries the exchange when the flag looks free; backs off exponentially up to
    /// `yieldAt` spins, then yields the CPU, so a preempted holder on an oversubscribed machine
    /// gets to run (Herlihy & Shavit, *The Art of Multiprocessor Programming*, §7.4). The caller
    /// stores false, releasing, to let go.
    @inline(__always)
    func acquireSpinning(yieldAt: Int) {
        var backoff = 1
        while true {
            while load(ordering: .relaxed) {
                if backoff >= yieldAt { sched_yield() } else { for _ in 0..<backoff { spinHint() } }
                backoff = min(backoff * 2, yieldAt)
            }
            if !exchange(true, ordering: .acquiring) { break }
        }
    }

    /// An opaque call the optimizer cannot drop, so that a backoff loop really spins.
    @inline(never) private func spinHint() {}
}
