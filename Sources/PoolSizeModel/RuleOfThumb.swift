/// A pool size people set by rule rather than by measurement, measured beside the
/// recommendation in a server sweep so the report can say what each rule would have given.
package enum RuleOfThumb: String, CaseIterable, Sendable {
    /// One thread per core: the CPU-bound rule.
    case cores
    /// One per core and one spare, for the thread that blocks now and then.
    case coresPlusOne = "cores + 1"
    /// Twice the cores and one: gunicorn's documented worker count, and many blogs' thread count.
    case twiceCoresPlusOne = "2 × cores + 1"

    /// The size the rule gives on `cores` cores.
    package func size(cores: Int) -> Int {
        switch self {
        case .cores: return cores
        case .coresPlusOne: return cores + 1
        case .twiceCoresPlusOne: return 2 * cores + 1
        }
    }

    /// Every rule's size on `cores` cores, each once, smallest first.
    package static func sizes(cores: Int) -> [Int] {
        Array(Set(allCases.map { $0.size(cores: max(cores, 1)) })).sorted()
    }
}
