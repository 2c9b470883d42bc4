import ArgumentParser
import PoolSizeKit
import PoolSizeModel

/// `poolsize _child MODE`: hidden; the deadlock probe's child process (see `ChildScenario`).
struct ChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: DeadlockProbe.childCommand,
        abstract: "Internal: the child process the deadlock probe runs under a watchdog.",
        shouldDisplay: false)

    @Argument(help: "sync-on-own-queue, hang, trap or returns.")
    var mode: String

    func run() throws {
        guard let scenario = ChildScenario(rawValue: mode) else {
            throw PoolSizeError.invalidOption(
                flag: DeadlockProbe.childCommand,
                message:
                    "unknown mode '\(mode)'; use one of \(ChildScenario.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        scenario.run()
    }
}
