extension KnobSpace {
    /// The free knobs whose values multiply to the threads a cell runs in all (workers ×
    /// threads). A connection pool is none of them: with `demand` given and a free knob outside
    /// it (the threads beside `--database-connections pool`), the demand's last factor is the
    /// pool each process holds, which counts connections, not threads.
    package func threadKnobs(demand: ConnectionDemand?) -> [String] {
        let names = free.map(\.name)
        guard let demand, let pool = demand.factors.last, names.contains(pool),
            names.contains(where: { !demand.factors.contains($0) })
        else { return names }
        return names.filter { $0 != pool }
    }
}
