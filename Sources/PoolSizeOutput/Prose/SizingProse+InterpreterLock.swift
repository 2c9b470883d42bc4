import PoolSizeModel
import PoolSizeObserve

extension SizingProse {
    /// What an interpreter lock did to a server's knee and to the formula, after "CPU utilization
    /// is only X%": the runtime named as `poolsize observe` names it, the cores each process
    /// kept busy against the one the lock allows, and the formula on min(cores, processes).
    static func lockClause(_ lock: InterpreterLockLimit, _ r: Recommendation) -> String {
        let program = KnownProgram(lockName: lock.runtime)
        let runtime = program.map(ObservationVerdictText.programName) ?? lock.runtime
        let language = ObservationVerdictText.language(program)
        let each = lock.processes == 1 ? "its 1 process" : "each of its \(lock.processes) processes"
        let processes = lock.processes == 1 ? "1 process" : "\(lock.processes) processes"
        let machine = lock.parallelism < r.cores ? ", not the machine's \(r.cores)" : ""
        // Short of the core, the lock is not shown to be held always: say what it does hold.
        let verdict =
            lock.held
            ? "so the lock caps throughput"
            : "so its \(lock.threads) threads share what the lock allows, whatever cores the machine has"
        return
            "the server runs \(runtime), whose global interpreter lock runs one thread's \(language) at a time in each "
            + "process, and \(each) kept \(UnitFormat.significant(lock.coresPerProcess)) cores busy at the knee (of "
            + "the 1 the lock allows), \(verdict); the cores the formula may count are "
            + "min(\(r.cores) cores, \(processes)) = \(lock.parallelism)\(machine), which gives "
            + "\(UnitFormat.significant(lock.formulaQueueCountExact)) (\(lock.parallelism) × U "
            + "\(UnitFormat.significant(r.targetUtilization)) × (1 + W/C \(UnitFormat.significant(r.waitCPURatio))))"
    }
}
