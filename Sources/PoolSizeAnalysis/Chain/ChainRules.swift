import PoolSizeModel

/// The rules of thumb of a chain's layers, each applied to the answer (`ChainRule`): for the
/// server's worker processes (the knob after `-w` or `--workers`, or named `workers`) one per
/// core and gunicorn's 2 × cores + 1; for a connection pool with a knob of its own (the last
/// factor of the connections, `KnobSpace.threadKnobs`) HikariCP's (cores × 2) + 1, a connection
/// per thread, and as many as the database allows.
package enum ChainRules {
    /// The rules that apply to `space` at `answer`'s cell.
    /// - Parameters:
    ///   - command: the server's command, which tells the worker processes' knob.
    ///   - cores: the cores the rules count (the sweep's).
    ///   - allowed: the connections the database allows the chain, when it was asked.
    package static func rules(
        space: KnobSpace, command: String, at answer: KnobCell, cores: Int, demand: ConnectionDemand?, allowed: Int?
    ) -> [ChainRule] {
        let n = max(cores, 1)
        var rules: [ChainRule] = []
        if let workers = workerKnob(space: space, command: command) {
            rules.append(rule(RuleOfThumb.cores.rawValue, workers, n, space, answer))
            rules.append(rule(RuleOfThumb.twiceCoresPlusOne.rawValue, workers, 2 * n + 1, space, answer))
        }
        let threads = space.threadKnobs(demand: demand)
        if let demand, let pool = demand.factors.last, space.free.contains(where: { $0.name == pool }),
            !threads.contains(pool)
        {
            rules.append(rule(RuleOfThumb.hikari.rawValue, pool, 2 * n + 1, space, answer))
            if let thread = threads.last(where: { $0 != workerKnob(space: space, command: command) }) {
                rules.append(rule("a connection per thread", pool, answer[thread], space, answer))
            }
            if let allowed {
                let others = demand.factors.dropLast().reduce(1) { $0 * answer[$1] }
                let most = max(0, (allowed - demand.overflow) / max(others, 1))
                rules.append(limitRule(RuleOfThumb.maxConnections.rawValue, pool, most, space, answer))
            }
        }
        return rules
    }

    /// The flags that set a server's worker processes: gunicorn's, Puma's and uvicorn's.
    static let workerFlags = ["-w", "--workers"]  // flag-spelling: not poolsize's

    /// The knob that sets the server's worker processes: written as the value of a worker flag
    /// (`-w {workers}`, `--workers={workers}`, `-w{workers}`), else the one named `workers`.
    static func workerKnob(space: KnobSpace, command: String) -> String? {
        let words = (try? ShellWords.split(command)) ?? []
        let free = Set(space.knobs.filter(\.isFree).map(\.name))
        for (index, word) in words.enumerated() {
            for name in free {
                let placeholder = "{\(name)}"
                let afterFlag = index > 0 && word == placeholder && workerFlags.contains(words[index - 1])
                let joined = workerFlags.contains { word == $0 + "=" + placeholder || word == $0 + placeholder }
                if afterFlag || joined { return name }
            }
        }
        return free.contains("workers") ? "workers" : nil
    }

    /// The sizes `name=auto` stands for on `cores` (n), from the knob's layer: the server's
    /// worker processes (`workerKnob`) every count from 1 to 2n + 1 up to 9 and the powers of two
    /// past it, with n and 2n + 1 (one worker a core, gunicorn's rule); a connection pool with a
    /// knob of its own (the last factor of `demand`, beside a knob outside it) the powers of two
    /// up to 8n with 2n + 1 (HikariCP's rule); any other knob (threads) the powers of two up to
    /// 8n. A size past these shows as a knob still rising at its largest size.
    package static func autoSizes(
        _ name: String, space: KnobSpace, command: String, demand: ConnectionDemand?, cores: Int
    ) -> [Int] {
        let n = max(cores, 1)
        let doubling = Array(sequence(first: 1) { $0 * 2 }.prefix { $0 <= 8 * n })
        if workerKnob(space: space, command: command) == name {
            let most = 2 * n + 1
            let every = Array(1...min(most, 9))
            return Array(Set(every + doubling.filter { $0 <= most } + [n, most])).sorted()
        }
        let free = space.knobs.filter(\.isFree).map(\.name)
        if let demand, demand.factors.last == name, free.contains(where: { !demand.factors.contains($0) }) {
            return Array(Set(doubling + [2 * n + 1])).sorted()
        }
        return doubling
    }

    /// `knob` at `value` beside the answer, or no cell when `value` is not among its sizes.
    static func rule(_ name: String, _ knob: String, _ value: Int, _ space: KnobSpace, _ answer: KnobCell)
        -> ChainRule
    {
        guard let cell = cell(knob, value, space, answer) else {
            return ChainRule(
                name: name, knob: knob, value: value, cell: nil,
                note: "not among the sizes of \(knob) (\(sizes(knob, space).map(String.init).joined(separator: ",")))")
        }
        return ChainRule(name: name, knob: knob, value: value, cell: cell)
    }

    /// A limit's rule: `knob` at the largest of its sizes within `most`.
    static func limitRule(_ name: String, _ knob: String, _ most: Int, _ space: KnobSpace, _ answer: KnobCell)
        -> ChainRule
    {
        guard let size = sizes(knob, space).filter({ $0 <= most }).max(), let cell = cell(knob, size, space, answer)
        else {
            return ChainRule(
                name: name, knob: knob, value: most, cell: nil, note: "no size of \(knob) is within \(most)")
        }
        return ChainRule(
            name: name, knob: knob, value: most, cell: cell,
            note: size == most ? nil : "the largest size of \(knob) within \(most)")
    }

    static func sizes(_ knob: String, _ space: KnobSpace) -> [Int] {
        guard case .list(let sizes) = space.knobs.first(where: { $0.name == knob })?.values else { return [] }
        return sizes
    }

    static func cell(_ knob: String, _ value: Int, _ space: KnobSpace, _ answer: KnobCell) -> KnobCell? {
        ChainRecommender.neighbour(knob, value, space, answer)
    }
}
