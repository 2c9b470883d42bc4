import Foundation
import PoolSizeModel

/// Builds the probe for a name with its default settings; the deadlock probe needs the poolsize
/// executable to re-run and the watchdog's timeout.
package enum ProbeCatalog {
    package static func probe(_ name: ProbeName, executable: URL?, watchdogSeconds: Double = 2) -> any Probe {
        switch name {
        case .nice: return NiceProbe()
        case .serialThreads: return SerialThreadsProbe()
        case .globalRamp: return GlobalRampProbe()
        case .deadlock: return DeadlockProbe(executable: executable, watchdogSeconds: watchdogSeconds)
        case .roundRobin: return RoundRobinProbe()
        case .semaphore: return SemaphoreProbe()
        }
    }
}
