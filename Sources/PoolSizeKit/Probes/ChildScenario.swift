import CPoolSizeSys
import Dispatch
import Foundation

/// What the hidden `poolsize _child MODE` does. The deadlock probe runs `sync-on-own-queue`;
/// `hang`, `trap` and `returns` stand in for the outcomes other platforms could give, so tests
/// can check the watchdog and the classification against each one.
///
/// Every mode first prints `readyMarker`, disables core files (a trap on purpose is not a crash
/// worth a core) and arms `alarm(30)`: if the parent dies before its watchdog fires, the child
/// still ends on its own.
package enum ChildScenario: String, CaseIterable, Sendable {
    /// A block running on a serial queue calls `sync` on that same queue.
    case syncOnOwnQueue = "sync-on-own-queue"
    /// Blocks forever (until killed or the alarm).
    case hang
    /// Dies of SIGTRAP.
    case trap
    /// Pretends `sync` returned and exits 0.
    case returns

    package static let readyMarker = "poolsize-child: about to sync"
    package static let returnedMarker = "poolsize-child: sync returned"
    /// Seconds after which a child ends itself whatever it is doing.
    package static let alarmSeconds: UInt32 = 30

    package func run() -> Never {
        _ = poolsize_disable_core_dumps()
        alarm(Self.alarmSeconds)
        switch self {
        case .syncOnOwnQueue:
            let queue = DispatchQueue(label: "poolsize.child.own-queue")
            queue.async {
                Self.say(Self.readyMarker)
                queue.sync {}
                Self.say(Self.returnedMarker)
                exit(0)
            }
        case .hang:
            Self.say(Self.readyMarker)
        case .trap:
            Self.say(Self.readyMarker)
            // The Swift runtime's backtracer catches a raised SIGTRAP, prints and returns; with
            // the default action restored the signal ends the process as a trap instruction would.
            signal(SIGTRAP, SIG_DFL)
            raise(SIGTRAP)
        case .returns:
            Self.say(Self.readyMarker)
            Self.say(Self.returnedMarker)
            exit(0)
        }
        // Park the main thread; the alarm ends the process if nothing else does.
        while true { sleep(Self.alarmSeconds) }
    }

    /// One line on stdout, written at once (no stdio buffer to lose when the process is killed).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
