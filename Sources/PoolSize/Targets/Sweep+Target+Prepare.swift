import Foundation
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel

extension Sweep.Target {
    /// The default task timeout.
    package static let defaultTaskTimeoutSeconds = 60.0

    /// The task timeout, checked.
    package func checkedTaskTimeout() throws(PoolSizeError) -> Double {
        let timeout = taskTimeoutSeconds ?? Self.defaultTaskTimeoutSeconds
        guard timeout >= 0.001 && timeout <= 3600 else {
            throw .invalidParameter(.taskTimeout, message: "must be 1ms to 1h, got \(UnitFormat.duration(timeout))")
        }
        return timeout
    }

    /// Checks the target against `context`, reads its files, and builds what runs its trials:
    /// a source on poolsize's pools or a measurer of the pool outside them. A database is
    /// connected to once, so that a script the server cannot run is said before any trial.
    package func prepare(_ context: TargetContext) throws(PoolSizeError) -> PreparedTarget {
        var pacedByTool = false
        if case let .server(task) = kind { pacedByTool = task.loadTool != nil }
        try context.load.checkPacing(byTool: pacedByTool)
        switch kind {
        case let .workload(name):
            let spec = try WorkloadLoader.load(name)
            return PreparedTarget(
                spec: spec, run: .spec(scratch: scratchDirectory.map { URL(fileURLWithPath: $0) }),
                isLoopbackServer: false)
        case let .trace(path):
            let trace = try Trace.load(path: path)
            return PreparedTarget(
                spec: trace.spec(trialMilliseconds: context.trialMilliseconds ?? 1000), run: .trace(trace),
                isLoopbackServer: false)
        case let .command(task):
            return try task.prepare(context, timeoutSeconds: checkedTaskTimeout())
        case let .http(task):
            return try task.prepare(context, timeoutSeconds: checkedTaskTimeout())
        case let .server(task):
            return try task.prepare(context, timeoutSeconds: checkedTaskTimeout())
        case let .loadTool(task):
            return try task.prepareAlone(context, timeoutSeconds: checkedTaskTimeout())
        case let .postgres(task):
            return try task.prepare(context, timeoutSeconds: checkedTaskTimeout())
        }
    }
}
