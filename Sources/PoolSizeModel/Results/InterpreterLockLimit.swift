/// What a server sweep's knee showed of an interpreter lock: the server's processes run a
/// runtime with one (CPython, Ruby MRI), and at the knee each kept about the one core the lock
/// allows busy, or the pool was threads inside fewer processes than cores. A process then runs
/// one thread of its language at a time, so the formula may count `parallelism`, not the cores.
package struct InterpreterLockLimit: Equatable, Sendable {
    /// The runtime, as `ServerFigures.interpreterLock` records it (`cpython 3.11`).
    package var runtime: String
    /// The server's processes that did work at the knee (the most over its trials).
    package var processes: Int
    /// The server's threads at the knee (the most over its trials).
    package var threads: Int
    /// The cores each process kept busy at the knee, the mean over its trials.
    package var coresPerProcess: Double
    /// Whether that is about the one core the lock allows (`InterpreterLock.holds`), so the lock
    /// was held nearly always; false when the finding rests on the pool's threads sitting in
    /// fewer processes than cores, which the lock holds to a core each whatever they ran.
    package var held: Bool
    /// The cores the formula may count: min(cores, processes).
    package var parallelism: Int
    /// The formula's count with `parallelism` in place of the cores.
    package var formulaQueueCountExact: Double

    /// A finding from its figures.
    package init(
        runtime: String, processes: Int, threads: Int, coresPerProcess: Double, held: Bool, parallelism: Int,
        formulaQueueCountExact: Double
    ) {
        self.runtime = runtime
        self.processes = processes
        self.threads = threads
        self.coresPerProcess = coresPerProcess
        self.held = held
        self.parallelism = parallelism
        self.formulaQueueCountExact = formulaQueueCountExact
    }
}
