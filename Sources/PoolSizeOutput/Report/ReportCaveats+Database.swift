import PoolSizeModel

extension ReportCaveats {
    /// A database sweep whose answer sits at the server's connection limit: the sizes could
    /// not go past it, so the curve may still rise there; or the answer is the limit while
    /// the sizes measured stopped below it (`largest`).
    static func connectionLimit(_ limit: Int, largest: Int) -> String {
        let connections = "\(limit) connection\(limit == 1 ? "" : "s")"
        guard largest >= limit else {
            return
                "**Bounded by the server's connections**: the formula asks for more connections than the server lets the sweep hold (\(connections): max_connections less the superusers' reserve and other clients' connections), so the recommendation is that limit; the sizes measured stopped at \(largest), with throughput still rising. Measure up to \(limit) to see whether the curve bends before it."
        }
        return
            "**Bounded by the server's connections**: the server let the sweep hold \(connections) (max_connections less the superusers' reserve and other clients' connections), the sizes stopped there, and the answer is at that bound: throughput may still rise past it. Raise max_connections to measure further, or take \(limit) as the most this server allows."
    }
}
