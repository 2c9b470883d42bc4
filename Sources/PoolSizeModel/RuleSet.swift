/// The rules of thumb a sweep measures beside its recommendation, by the kind of pool it sizes:
/// each case holds what its rules are computed from, so the sizes, the sentences and their
/// heading follow from the case alone (`SweepTarget.ruleSet` chooses it).
package enum RuleSet: Equatable, Sendable {
    /// A server's thread pool on `cores` cores: cores, cores + 1, 2 × cores + 1.
    case threadPool(cores: Int)
    /// A pool of connections to a database server: HikariCP's (cores × 2) + 1 on the server's
    /// cores, and the server's own limit (nil when it would not say). poolsize knows the
    /// server's cores only when it runs on this machine (`serverIsLocal`); otherwise `cores`
    /// are this machine's, and the heading says so.
    case connectionPool(cores: Int, serverIsLocal: Bool, connectionLimit: Int?)

    /// Each rule with the size it gives, in the order the report lists them.
    package var sized: [(rule: RuleOfThumb, size: Int)] {
        switch self {
        case let .threadPool(cores):
            let n = max(cores, 1)
            return [(.cores, n), (.coresPlusOne, n + 1), (.twiceCoresPlusOne, 2 * n + 1)]
        case let .connectionPool(cores, _, limit):
            let hikari = 2 * max(cores, 1) + 1
            return [(.hikari, hikari)] + (limit.map { [(.maxConnections, max($0, 1))] } ?? [])
        }
    }

    /// Every rule's size, each once, smallest first.
    package var sizes: [Int] { Array(Set(sized.map(\.size))).sorted() }

    /// The console's and the report's heading over the rules' sentences.
    package var heading: String {
        switch self {
        case let .threadPool(cores):
            return "rules of thumb on \(cores) cores"
        case let .connectionPool(cores, local, _):
            return local
                ? "rules of thumb for a connection pool, on the database server's \(cores) cores (it runs on this machine)"
                : "rules of thumb for a connection pool, on this machine's \(cores) cores (the database server's are not known here)"
        }
    }
}
