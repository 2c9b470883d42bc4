import PoolSizeKit
import PoolSizeModel

extension Sweep {
    /// Sweeps `target` as `configuration` says: a server started at each size, a load tool's
    /// concurrency, a connection pool against PostgreSQL, a command or an HTTP request on
    /// poolsize's own pools. Checks the target now (its commands found, its URL on this machine,
    /// a database connected to and the script planned there), so that a mistake is said before
    /// any trial. A server's or a load tool's pool is its own; `configuration.pool` is the pool
    /// kind of every other target.
    ///
    /// ```swift
    /// let target = Sweep.Target.postgres("postgresql://app@127.0.0.1:5432/shop",
    ///                                    sql: "SELECT * FROM orders WHERE id = 1;")
    /// let result = try Sweep(.init(name: "orders", sizes: .explicit([1, 2, 4, 8])), target: target).run()
    /// ```
    public init(_ configuration: Configuration, target: Target) throws(PoolSizeError) {
        var plan = configuration.plan(description: "")
        var context = TargetContext(cores: plan.cores)
        context.trialMilliseconds = plan.trialMilliseconds
        context.sizes = configuration.sizes
        context.load = configuration.load
        if case .server(let task) = target.kind, task.knobs != nil {
            let chain = try ChainPlan(target: target, plan: plan, context: context)
            self.init(plan: chain.template, source: ClosureSource { _ in })
            self.chain = chain
            return
        }
        let prepared = try target.prepare(context)
        plan.spec = prepared.spec
        plan.spec.name = configuration.name
        plan.target = prepared.target
        switch prepared.target {
        case .server: plan.pools = [.server]
        case .loadTool: plan.pools = [.loadTool]
        case .inProcess, .database: break
        }
        try plan.checkPhases()
        self.init(plan: plan, source: ClosureSource { _ in })
        workload = prepared.run
    }
}
