import Foundation

/// M/M/c queueing formulas for capacity planning: turning an arrival rate and a service time
/// into a number of workers (threads per host) with a bounded wait.
///
/// Assumes Poisson arrivals and exponential service (Erlang's model: A. K. Erlang, 1917;
/// see L. Kleinrock, *Queueing Systems* vol. 1, Wiley 1975, ch. 3). Real service times
/// are rarely exponential, so treat these as a first estimate to check against a sweep.
package enum Queueing {
    /// Erlang B: the blocking probability of c servers with no waiting room, offered `a` erlangs.
    ///
    /// Uses the recurrence B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)), which stays in [0, 1]
    /// and never forms aᶜ or c!, so it is stable for any c (10 000 servers cost 10 000 steps).
    /// Returns 1 for c ≤ 0, 0 for a ≤ 0, NaN for NaN load.
    package static func erlangB(servers: Int, offeredLoad: Double) -> Double {
        guard !offeredLoad.isNaN else { return .nan }
        guard servers > 0 else { return 1 }
        guard offeredLoad > 0 else { return 0 }
        var b = 1.0
        for k in 1...servers { b = offeredLoad * b / (Double(k) + offeredLoad * b) }
        return b
    }

    /// Erlang C: the probability that an arrival has to wait in an M/M/c queue with c servers
    /// and offered load a = λ/μ erlangs. Computed from Erlang B as
    /// C = c·B / (c − a·(1 − B)), which avoids the factorials of the textbook form.
    /// Returns 1 when a ≥ c (the queue grows without bound: everyone waits).
    package static func erlangC(servers: Int, offeredLoad: Double) -> Double {
        guard !offeredLoad.isNaN else { return .nan }
        guard offeredLoad > 0 else { return 0 }
        let c = Double(servers)
        guard servers > 0, offeredLoad < c else { return 1 }
        let b = erlangB(servers: servers, offeredLoad: offeredLoad)
        return c * b / (c - offeredLoad * (1 - b))
    }

    /// Mean time spent waiting in queue, Wq = C(c, a) / (cμ − λ), in the time unit of the rates'
    /// reciprocal. nil when λ ≥ cμ (unstable) or an argument is out of range (c < 1, μ ≤ 0, λ < 0).
    package static func mmcMeanWait(servers: Int, arrivalRate: Double, serviceRate: Double) -> Double? {
        guard let (c, a, drain) = stableQueue(servers, arrivalRate, serviceRate) else { return nil }
        return erlangC(servers: c, offeredLoad: a) / drain
    }

    /// The `percentile`-th percentile (0–100, like `percentile(_:_:)`) of the time spent waiting
    /// in queue. The wait is 0 with probability 1 − C and otherwise exponential with rate cμ − λ,
    /// so P(Wq > t) = C·e^{−(cμ−λ)t} and the quantile is ln(C / (1 − p)) / (cμ − λ), or 0 when
    /// p ≤ 1 − C. nil when unstable, out of range, or `percentile` is outside [0, 100).
    package static func mmcWaitQuantile(servers: Int, arrivalRate: Double, serviceRate: Double, percentile: Double)
        -> Double?
    {
        guard percentile >= 0, percentile < 100,
            let (c, a, drain) = stableQueue(servers, arrivalRate, serviceRate)
        else { return nil }
        let waitProbability = erlangC(servers: c, offeredLoad: a)
        let tail = 1 - percentile / 100
        guard tail < waitProbability else { return 0 }
        return log(waitProbability / tail) / drain
    }

    /// Little's law L = λW (J. D. C. Little, Operations Research 9(3), 1961): the mean number
    /// in a system is the arrival rate times the mean time in it — e.g. busy threads = task rate
    /// × seconds per task. Holds for any stable system, not only M/M/c.
    package static func littlesLaw(arrivalRate: Double, timeInSystem: Double) -> Double {
        arrivalRate * timeInSystem
    }

    /// The smallest server count c with utilization λ/(cμ) ≤ `maxUtilization` (and < 1, for a
    /// stable queue) and, when `waitLimit` is given, the `waitLimit.percentile`-th percentile of
    /// the queueing wait ≤ `waitLimit.seconds` (in the rates' time unit).
    ///
    /// nil for out-of-range arguments or when no c ≤ `maximumServers` qualifies.
    package static func minimumServers(
        arrivalRate: Double, serviceRate: Double, maxUtilization: Double = 1,
        waitLimit: (percentile: Double, seconds: Double)? = nil, maximumServers: Int = 100_000
    ) -> Int? {
        guard arrivalRate >= 0, serviceRate > 0, maxUtilization > 0, maxUtilization.isFinite,
            arrivalRate.isFinite, serviceRate.isFinite
        else { return nil }
        if let limit = waitLimit, !(limit.percentile >= 0 && limit.percentile < 100 && limit.seconds >= 0) {
            return nil
        }
        let load = arrivalRate / serviceRate
        let byUtilization = (load / maxUtilization).rounded(.up)
        guard byUtilization <= Double(maximumServers) else { return nil }
        var c = max(1, Int(byUtilization))
        while c <= maximumServers {
            // Waits fall monotonically with c, so the first qualifying c is the answer.
            if Double(c) > load {
                guard let limit = waitLimit else { return c }
                if let wait = mmcWaitQuantile(
                    servers: c, arrivalRate: arrivalRate, serviceRate: serviceRate, percentile: limit.percentile),
                    wait <= limit.seconds
                {
                    return c
                }
            }
            c += 1
        }
        return nil
    }

    private static func stableQueue(_ servers: Int, _ arrivalRate: Double, _ serviceRate: Double) -> (
        Int, Double, Double
    )? {
        guard servers >= 1, serviceRate > 0, arrivalRate >= 0, serviceRate.isFinite, arrivalRate.isFinite else {
            return nil
        }
        let drain = Double(servers) * serviceRate - arrivalRate
        guard drain > 0 else { return nil }
        return (servers, arrivalRate / serviceRate, drain)
    }
}
