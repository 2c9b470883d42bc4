import PoolSizeModel

extension Sweep.Target {
    /// The target as a run records it: credentials masked, and whether any was.
    var recorded: (Sweep.Target, withheld: Bool) {
        var copy = self
        let withheld: Bool
        switch kind {
        case .workload, .trace:
            withheld = false
        case let .command(task):
            let recorded = task.recorded
            (copy.kind, withheld) = (.command(recorded.task), recorded.withheld)
        case let .http(task):
            let recorded = task.recorded
            (copy.kind, withheld) = (.http(recorded.task), recorded.withheld)
        case let .server(task):
            let recorded = task.recorded
            (copy.kind, withheld) = (.server(recorded.task), recorded.withheld)
        case let .loadTool(task):
            let recorded = task.recorded
            (copy.kind, withheld) = (.loadTool(recorded.task), recorded.withheld)
        case let .postgres(task):
            let recorded = task.recorded
            (copy.kind, withheld) = (.postgres(recorded.task), recorded.withheld)
        }
        return (copy, withheld)
    }
}
