import PoolSize
import PoolSizeModel

extension SweepServerOptions {
    /// `--load` without `--server`: the tool's own concurrency is the pool, `{size}` in its
    /// command, run once per trial; no server is started, so the server's flags, a URL and a
    /// `{port}` are refused, each with its fix.
    func loadAloneTarget(
        _ tool: String, workload: SweepWorkloadOptions, axes: SweepAxisOptions, load: SweepLoadOptions
    ) throws(PoolSizeError) -> Sweep.Target {
        let serverOnly = [
            ("--resize", resize != nil), ("--settle", settle != nil), ("--ready-timeout", readyTimeout != "30s"),
            ("--stop-signal", stopSignal != nil),
        ]
        for (flag, given) in serverOnly where given {
            throw .invalidOption(
                flag: flag, message: "applies to the server --server starts; --load alone starts none: drop \(flag)")
        }
        if connections != nil {
            throw .invalidOption(
                flag: "--connections",
                message:
                    "sets poolsize's driver, which --load replaces; --load alone sizes the tool's own connections with {size} in its command: drop --connections"
            )
        }
        let replaced = [
            ("--http", workload.http != nil), ("--exec", workload.exec != nil),
            ("--workload", workload.workload != nil), ("--trace", workload.trace != nil),
        ]
        for (flag, given) in replaced where given {
            throw .invalidOption(
                flag: flag,
                message:
                    "--load alone is the whole load, the tool run at each size; drop \(flag) (or give --server to load a server you start)"
            )
        }
        for (flag, given) in axes.ownPoolFlags where given {
            throw .invalidOption(
                flag: flag,
                message: "sets poolsize's own pools; --load alone sizes the tool's concurrency: drop \(flag)")
        }
        if load.arrivalRate != nil {
            throw .invalidOption(
                flag: "--arrival-rate",
                message: "--load alone runs the tool's own load at each size; drop --arrival-rate")
        }
        var target = Sweep.Target(.loadTool(LoadToolTask(command: tool, parse: parse)))
        target.taskTimeoutSeconds = try workload.taskTimeoutSeconds()
        return target
    }
}
