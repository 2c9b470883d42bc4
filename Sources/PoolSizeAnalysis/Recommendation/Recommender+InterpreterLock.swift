import PoolSizeModel
import PoolSizeStats

extension Recommender {
    /// The interpreter lock as what held a server's knee below the formula, from the knee's
    /// trials (`atKnee`) of `r`: every one recorded the server's processes running one runtime
    /// with a lock (`ServerFigures`), and either each process kept about the one core the lock
    /// allows busy (`InterpreterLock.holds`, observe's rule) or the pool was threads inside fewer
    /// processes than cores, which the lock holds to one core each whatever they ran. Nil for
    /// any other server, or poolsize's own pools.
    static func interpreterLock(atKnee: [TrialRecord], _ r: Recommendation) -> InterpreterLockLimit? {
        let figures = atKnee.compactMap { trial in trial.watched.server.map { (trial, $0) } }
        guard !figures.isEmpty, figures.count == atKnee.count, let runtime = figures[0].1.interpreterLock,
            figures.allSatisfy({ $0.1.interpreterLock == runtime })
        else { return nil }
        let processes = figures.map(\.1.processes).max() ?? 0
        guard processes > 0, r.cores > 0 else { return nil }
        let perProcess =
            figures.map { trial, server in trial.utilization * Double(r.cores) / Double(max(server.processes, 1)) }
            .reduce(0, +) / Double(figures.count)
        let threads = figures.map(\.0.processThreads).max() ?? 0
        // Threads of the pool inside fewer processes than cores: the lock, not the cores, sets
        // how many run at once.
        let threadsInFewProcesses = processes < r.cores && threads >= 2 * processes
        let held = InterpreterLock.holds(coresPerProcess: perProcess)
        guard held || threadsInFewProcesses else { return nil }
        let parallelism = min(r.cores, processes)
        return InterpreterLockLimit(
            runtime: runtime, processes: processes, threads: threads, coresPerProcess: perProcess, held: held,
            parallelism: parallelism,
            formulaQueueCountExact: SizingFormula.queueCount(
                cores: Double(parallelism), targetUtilization: r.targetUtilization, waitCPURatio: r.waitCPURatio))
    }
}
