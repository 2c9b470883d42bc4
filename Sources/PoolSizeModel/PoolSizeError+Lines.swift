extension PoolSizeError {
    /// The lines printed on stderr: the one-line description, or one line per limit of an
    /// observation (each its own finding). The command line escapes each for the terminal, so a
    /// value inside one cannot break it into two.
    package var lines: [String] {
        if case let .observationLimited(lines, _) = self { return lines.map { "observe: \($0)" } }
        return [description]
    }
}

extension PoolSizeError {
    /// The error of an observation that ran into `limits`: one line each, the first one's code.
    package static func observationLimited(_ limits: [ObservationLimit]) -> PoolSizeError {
        .observationLimited(lines: limits.map(\.message), exitCode: limits.first?.exitCode ?? 5)
    }
}
