import Foundation
import PoolSizeModel
import PoolSizeProcess

/// Runs `poolsize _child sync-on-own-queue` in a child process under a watchdog and classifies
/// how it ended. The probe never runs the deadlock in its own process, so it cannot hang.
package struct DeadlockProbe: ObservingProbe {
    package let name = ProbeName.deadlock
    /// The poolsize executable to re-run; nil when it could not be located.
    package var executable: URL?
    package var scenario: ChildScenario
    package var watchdogSeconds: Double

    package init(executable: URL?, scenario: ChildScenario = .syncOnOwnQueue, watchdogSeconds: Double = 2) {
        self.executable = executable
        self.scenario = scenario
        self.watchdogSeconds = watchdogSeconds
    }

    /// The hidden subcommand's name; the CLI registers a command of that name.
    package static let childCommand = "_child"

    package func observe() -> DeadlockObservation {
        guard let executable else {
            return DeadlockObservation(
                outcome: .failedToStart(reason: "cannot locate the poolsize executable to re-run"), reachedSync: false,
                watchdogSeconds: watchdogSeconds)
        }
        let child = ChildProcessRunner(timeoutSeconds: watchdogSeconds).run(
            executable: executable, arguments: [Self.childCommand, scenario.rawValue])
        return Self.observation(of: child, watchdogSeconds: watchdogSeconds)
    }

    /// Reads the child's markers and what its stderr says; separate from spawning so any child
    /// run (a shell stand-in in tests, say) can be classified the same way.
    package static func observation(of child: ChildRun, watchdogSeconds: Double) -> DeadlockObservation {
        DeadlockObservation(
            outcome: child.outcome,
            reachedSync: child.standardOutput.contains(ChildScenario.readyMarker),
            syncReturned: child.standardOutput.contains(ChildScenario.returnedMarker),
            watchdogSeconds: watchdogSeconds,
            errorSummary: errorSummary(child.standardError))
    }

    /// The most telling line of a crashed child's stderr: a runtime message (libdispatch's
    /// "BUG IN CLIENT", Swift's "Fatal error"), else the function the Swift backtracer shows at
    /// the top of the crashed thread, else the last line. Nil for empty output.
    package static func errorSummary(_ text: String) -> String? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        if let message = lines.first(where: {
            $0.contains("BUG IN CLIENT") || $0.contains("Fatal error") || $0.contains("dispatch_sync called")
        }) {
            return String(message.prefix(160))
        }
        if let crashed = lines.firstIndex(where: { $0.hasSuffix("crashed:") }), crashed + 1 < lines.count,
            let frame = topFrame(lines[crashed + 1])
        {
            return "crashed in \(frame)"
        }
        return lines.last { !$0.hasPrefix("Backtrace took") }.map { String($0.prefix(160)) }
    }

    /// `__DISPATCH_WAIT_FOR_QUEUE__ (libdispatch.so)` from a backtracer frame line such as
    /// `0  0x00007f…d8 __DISPATCH_WAIT_FOR_QUEUE__ + 344 in libdispatch.so`.
    static func topFrame(_ line: String) -> String? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first == "0", let address = words.firstIndex(where: { $0.hasPrefix("0x") }),
            address + 1 < words.count
        else { return nil }
        let symbol = words[address + 1]
        let image = words.firstIndex(of: "in").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        return image.map { "\(symbol) (\($0))" } ?? String(symbol)
    }
}
