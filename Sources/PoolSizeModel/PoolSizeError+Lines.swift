extension PoolSizeError {
    /// The lines printed on stderr: the one-line description, or one line per limit of an
    /// observation (each its own finding). The command line escapes each for the terminal, so a
    /// value inside one cannot break it into two.
    package var lines: [String] {
        if case let .observationLimited(limits) = self { return limits.map { "observe: \($0.message)" } }
        return [description]
    }
}
