/// When a runtime with a global interpreter lock (CPython before free threading, Ruby MRI) is
/// held to it: a thread runs the language only holding the lock, so a process whose threads
/// keep about one core busy held it nearly all the time, and a thread that wanted to run waited
/// for it nearly whenever it wanted to. `poolsize observe` judges a running pool by it
/// (`PoolVerdict.lockBound`), and a server sweep the knee of a server whose processes run such
/// a runtime (`Recommender`), so both say "the lock" of the same figures.
package enum InterpreterLock {
    /// CPU per process at or above this, in cores, and the lock is the limit. Below it the lock
    /// is free a tenth of the time or more.
    package static let busyCores = 0.9
    /// CPU per process above this and threads ran in parallel beyond the lock (code that
    /// releases it: C extensions, system calls), so the lock does not hold the process to one
    /// core. The margin over 1 is what a thread does on a CPU after releasing the lock (a
    /// socket's read or write).
    package static let parallelCores = 1.25

    /// Whether a process of a runtime with the lock that kept `coresPerProcess` busy was held
    /// to the one core the lock allows.
    package static func holds(coresPerProcess: Double) -> Bool {
        coresPerProcess >= busyCores && coresPerProcess <= parallelCores
    }
}
