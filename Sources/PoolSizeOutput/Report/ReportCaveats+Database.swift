import PoolSizeModel

extension ReportCaveats {
    /// A database sweep whose answer sits at the server's connection limit: the sizes could
    /// not go past it, so the curve may still rise there.
    static func connectionLimit(_ limit: Int) -> String {
        "**Bounded by the server's connections**: the server let the sweep hold \(limit) connection\(limit == 1 ? "" : "s") (max_connections less the superusers' reserve and other clients' connections), the sizes stopped there, and the answer is at that bound: throughput may still rise past it. Raise max_connections to measure further, or take \(limit) as the most this server allows."
    }
}
