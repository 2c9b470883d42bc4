/// How `poolsize plan` prints its answer (`--format`).
package enum PlanFormat: String, CaseIterable, Sendable {
    /// An aligned console table with the working and the assumptions in plain words.
    case table
    /// JSON with snake_case keys (`threads_per_host`, `hosts`, `utilization`, …) for scripts.
    case json
}

/// How `poolsize compare` prints its verdict (`--format`).
package enum CompareFormat: String, CaseIterable, Sendable {
    /// A GitHub-flavoured Markdown table, ready for a CI job summary.
    case markdown
    /// JSON with snake_case keys, one object per matched configuration.
    case json
}
