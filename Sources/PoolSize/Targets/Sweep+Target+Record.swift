import PoolSizeModel

extension Sweep.Target {
    /// The target as a run records it: credentials masked, and whether any was.
    var recorded: (Sweep.Target, withheld: Bool) {
        func rewrap<Task>(_ recorded: (task: Task, withheld: Bool), _ kind: (Task) -> Kind) -> (Kind, Bool) {
            (kind(recorded.task), recorded.withheld)
        }
        var copy = self
        var withheld = false
        switch kind {
        case .workload, .trace: break
        case let .command(task): (copy.kind, withheld) = rewrap(task.recorded, Kind.command)
        case let .http(task): (copy.kind, withheld) = rewrap(task.recorded, Kind.http)
        case let .server(task): (copy.kind, withheld) = rewrap(task.recorded, Kind.server)
        case let .loadTool(task): (copy.kind, withheld) = rewrap(task.recorded, Kind.loadTool)
        case let .postgres(task): (copy.kind, withheld) = rewrap(task.recorded, Kind.postgres)
        }
        return (copy, withheld)
    }
}
