import Synchronization

/// Burns a requested amount of *thread CPU time* with real arithmetic.
///
/// The loop body is a xorshift64* step whose result escapes into an atomic sink, with a
/// trip count known only at run time, so the optimizer can neither fold nor drop it. The
/// burner is calibrated once (iterations per microsecond), then each burn runs the predicted
/// number of iterations and checks the thread CPU clock, topping up until the target is met.
/// Checking the thread CPU clock rather than the wall clock makes C exact even when the thread
/// is preempted: run-queue delay shows up in wall time (W), never in C.
package final class CPUBurner: Sendable {
    /// The clock whose thread CPU time the burner watches.
    package let clocks: any MeasurementClocks
    /// Calibrated iterations per microsecond of CPU time.
    package let iterationsPerMicrosecond: Double
    private let sink = Atomic<UInt64>(0)

    /// A burner; `iterationsPerMicrosecond` skips calibration (tests).
    package init(clocks: any MeasurementClocks = SystemClocks(), iterationsPerMicrosecond: Double? = nil) {
        self.clocks = clocks
        self.iterationsPerMicrosecond = iterationsPerMicrosecond ?? Self.calibrate(clocks: clocks)
    }

    /// Burns `microseconds` of the calling thread's CPU time; returns the CPU nanoseconds used.
    @discardableResult
    package func burn(microseconds: Double) -> UInt64 {
        guard microseconds > 0 else { return 0 }
        let start = clocks.threadCPUNanoseconds()
        burn(untilThreadCPU: start + UInt64(microseconds * 1_000), now: start)
        return clocks.threadCPUNanoseconds() &- start
    }

    /// Burns until the calling thread's CPU clock reads `target` nanoseconds (no-op if it
    /// already does), stopping within about 1 µs of it; returns the clock's last reading.
    ///
    /// The first round aims at 70% of the way using the calibrated rate; every later round aims
    /// at 90% of what remains using the rate the previous round actually achieved. The rate
    /// per CPU-microsecond is not constant: a busy SMT sibling or cache pressure from other
    /// threads slows the loop by 10–30%, and a fixed prediction would then overshoot.
    @discardableResult
    package func burn(untilThreadCPU target: UInt64, now: UInt64? = nil) -> UInt64 {
        var used = now ?? clocks.threadCPUNanoseconds()
        var state = used | 1
        var rate = iterationsPerMicrosecond
        var share = 0.7
        while used + 1_000 <= target {
            let remainingMicroseconds = Double(target - used) / 1_000
            let iterations = max(16, Int(share * remainingMicroseconds * rate))
            state = Self.spin(state: state, iterations: iterations)
            let after = clocks.threadCPUNanoseconds()
            let elapsedMicroseconds = Double(after &- used) / 1_000
            if elapsedMicroseconds > 0.5 { rate = Double(iterations) / elapsedMicroseconds }
            used = after
            share = 0.9
        }
        sink.store(state, ordering: .relaxed)
        return used
    }

    @inline(never)
    static func spin(state: UInt64, iterations: Int) -> UInt64 {
        var x = state
        for _ in 0..<iterations {
            x ^= x >> 12
            x ^= x << 25
            x ^= x >> 27
            x = x &* 0x2545_F491_4F6C_DD1D
        }
        return x
    }

    /// Measures iterations per microsecond over about 20 ms of thread CPU time, taking the
    /// fastest of several rounds (the one least disturbed by preemption or cache misses).
    static func calibrate(clocks: any MeasurementClocks) -> Double {
        var best = 0.0
        var iterations = 10_000
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<12 {
            let start = clocks.threadCPUNanoseconds()
            state = spin(state: state, iterations: iterations)
            let elapsed = Double(clocks.threadCPUNanoseconds() &- start) / 1_000
            if elapsed > 0 { best = max(best, Double(iterations) / elapsed) }
            if elapsed < 2_000 { iterations *= 2 }
        }
        precondition(state != 42 || best >= 0)  // keeps `state` observable
        return max(best, 1)
    }
}
