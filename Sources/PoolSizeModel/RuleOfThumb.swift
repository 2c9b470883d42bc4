/// A pool size people set by rule rather than by measurement, measured beside the
/// recommendation so the report can say what each rule would have given. Which rules apply
/// depends on the pool (`RuleSet`): a server's threads, or connections to a database.
package enum RuleOfThumb: String, CaseIterable, Sendable {
    /// One thread per core: the CPU-bound rule.
    case cores
    /// One per core and one spare, for the thread that blocks now and then.
    case coresPlusOne = "cores + 1"
    /// Twice the cores and one: gunicorn's documented worker count, and many blogs' thread count.
    case twiceCoresPlusOne = "2 × cores + 1"
    /// HikariCP's pool-sizing advice, `(core_count × 2) + effective_spindle_count`, with one
    /// spindle: on the database server's cores.
    case hikari = "HikariCP (cores × 2) + 1"
    /// As many connections as the server allows: the pool that never waits for one.
    case maxConnections = "max_connections"
}
