import PoolSizeModel
import PoolSizeObserve
import PoolSizeProcess

extension ServerTrialMeasurer {
    /// The server's processes over a trial's window of `windowSeconds`, as `poolsize observe`
    /// reads a pool's: those that did work (`PoolVerdict.idleCores` of CPU or more, so an idle
    /// supervisor is not counted beside its workers), and the runtime with an interpreter lock
    /// that all of them run, recognised as observe recognises it (`KnownProgram`, from the
    /// executable and shared libraries) while they still run.
    static func serverFigures(_ after: SessionUsage, since before: SessionUsage, windowSeconds: Double)
        -> ServerFigures
    {
        var cpuSeconds: [Int32: Double] = [:]
        for (tid, now) in after.threadCPUNanoseconds {
            guard let pid = after.processOfThread[tid] else { continue }
            let earlier = before.threadCPUNanoseconds[tid] ?? 0
            // A thread started in the window is counted whole, as the trial's CPU counts it.
            cpuSeconds[pid, default: 0] += Double(now >= earlier ? now - earlier : now) / 1e9
        }
        let working = cpuSeconds.filter { windowSeconds > 0 && $0.value / windowSeconds >= PoolVerdict.idleCores }
            .keys.sorted()
        let programs = working.map { ProcessFacts(RawProcessTexts.read(pid: $0)).program }
        let shared = programs.first.flatMap { first in programs.allSatisfy { $0?.kind == first?.kind } ? first : nil }
        return ServerFigures(processes: working.count, interpreterLock: shared?.lockName)
    }
}
