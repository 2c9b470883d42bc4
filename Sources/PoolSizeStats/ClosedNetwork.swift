/// The finite-source queue (the "machine repairman" model, M/M/c//N: Gross & Harris,
/// *Fundamentals of Queueing Theory*, §2.7): N tasks cycle between a think phase of mean Z
/// (here the task's wait W, which any number can do at once) and c servers of mean service time
/// S (here the task's CPU time C on `cores` CPUs).
///
/// It is what a closed-loop pool of N queues is when task times vary: the formula
/// N = cores × (1 + W/C) assumes CPU bursts never collide, which only perfectly staggered,
/// constant times achieve, while this model counts the collisions. With exponential times it
/// is pessimistic for steadier tasks, so measured knees usually fall between the two.
package enum ClosedNetwork {
    /// Throughput (per unit of the times given) of N tasks: Σ_k min(k, c)/S · p_k over the
    /// birth–death chain of k tasks at the CPUs, with birth rate (N − k)/Z and death rate
    /// min(k, c)/S. Probabilities are renormalized as they are built, so N in the thousands is fine.
    package static func throughput(tasks n: Int, servers c: Int, serviceTime s: Double, thinkTime z: Double) -> Double {
        guard n > 0, c > 0, s > 0 else { return 0 }
        guard z > 0 else { return Double(min(n, c)) / s }
        var weights = [1.0]
        for k in 1...n {
            let birth = Double(n - k + 1) / z
            let death = Double(min(k, c)) / s
            weights.append(weights[k - 1] * birth / death)
            if weights[k] > 1e200 { weights = weights.map { $0 / 1e200 } }
        }
        let total = weights.reduce(0, +)
        var x = 0.0
        for k in 1...n { x += Double(min(k, c)) / s * weights[k] / total }
        return x
    }

    /// Smallest N whose throughput reaches (1 − tolerance) of the CPU bound c / S; nil when none
    /// up to `limit` does.
    package static func knee(
        servers c: Int, serviceTime s: Double, thinkTime z: Double, tolerance: Double = 0.05, limit: Int = 4096
    ) -> Int? {
        guard c > 0, s > 0 else { return nil }
        let target = (1 - tolerance) * Double(c) / s
        return (1...limit).first { throughput(tasks: $0, servers: c, serviceTime: s, thinkTime: z) >= target }
    }
}
