/// The pool-sizing rule of thumb N = cores × U × (1 + W/C)
/// (B. Goetz et al., *Java Concurrency in Practice*, Addison-Wesley 2006, §8.2 "Sizing thread
/// pools"), where U is the target CPU utilization in (0, 1], W the time a task waits and C the
/// CPU time it burns.
///
/// It assumes waiting parallelizes perfectly; lock waiting does not, so measured curves fall
/// short of it when a primitive serializes work (see `USLFit`, docs/platform.md "Measuring W and C").
package enum SizingFormula {
    /// N = cores × U × (1 + W/C). Not rounded: rounding is a reporting decision.
    package static func queueCount(cores: Double, targetUtilization: Double, waitCPURatio: Double) -> Double {
        cores * targetUtilization * (1 + waitCPURatio)
    }

    /// N from a measured sample of W/C, with the sample's spread carried into N.
    ///
    /// N is linear in W/C, so uncertainty propagates exactly: with k = cores × U,
    /// SD_N = k·SD_{W/C}. `standardError` is the standard error of N at the *mean* W/C,
    /// k·SD_{W/C}/√n, and `interval95` is the Student-t interval of the mean W/C mapped through
    /// the same line (nil for a single measurement). Report the per-task spread as
    /// k × `waitCPURatio.standardDeviation` if that is what the reader needs.
    package static func queueCount(cores: Double, targetUtilization: Double, waitCPURatio: Summary) -> Estimate {
        let k = cores * targetUtilization
        let map = { (ratio: Double) in
            queueCount(cores: cores, targetUtilization: targetUtilization, waitCPURatio: ratio)
        }
        let interval = waitCPURatio.confidenceInterval95.map { ci in
            // A negative k (nonsensical input) flips the interval; keep lower ≤ upper anyway.
            let (a, b) = (map(ci.lower), map(ci.upper))
            return ConfidenceInterval(lower: min(a, b), upper: max(a, b), level: ci.level)
        }
        return Estimate(
            value: map(waitCPURatio.mean),
            standardError: abs(k) * waitCPURatio.standardError,
            interval95: interval
        )
    }

    /// Closed-loop throughput (tasks/s) of a synthetic workload with no contention:
    /// X(N) = min(N / (W + C), cores / C), with W and C in seconds per task.
    ///
    /// Below the kink each of the N workers completes one task per W + C seconds; above it the
    /// CPUs are saturated. The kink sits exactly at N = cores × (1 + W/C), the formula at U = 1,
    /// which is why tests and benchmarks use it as ground truth (docs/platform.md).
    package static func idealThroughput(poolSize: Double, cores: Double, waitSeconds: Double, cpuSeconds: Double)
        -> Double
    {
        min(poolSize / (waitSeconds + cpuSeconds), cores / cpuSeconds)
    }

    /// The pool size at which `idealThroughput` stops rising: cores × (1 + W/C).
    package static func idealKnee(cores: Double, waitSeconds: Double, cpuSeconds: Double) -> Double {
        queueCount(cores: cores, targetUtilization: 1, waitCPURatio: waitSeconds / cpuSeconds)
    }
}
