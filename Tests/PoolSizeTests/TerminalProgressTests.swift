import Foundation
@testable import PoolSize
import Testing

/// The progress line `Sweep.run()` shows on a terminal when the caller passes no observer: what
/// the sweep does, rewritten in place, and cleared at the end.
@Suite(.serialized) struct TerminalProgressTests {
    /// What the progress wrote, kept in an object the escaping closure holds, behind an NSLock:
    /// a local `Mutex` captured by the closure, and then a `Mutex` held by this object, each
    /// crashed the test runner once (a bad pointer read inside the closure, 0x40).
    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []

        func append(_ text: String) { lock.withLock { stored.append(text) } }

        var lines: [String] { lock.withLock { stored } }
    }

    @Test func saysWhatTheSweepDoesAndClearsTheLine() throws {
        let written = Written()
        let progress = TerminalProgress { text in written.append(text) }
        _ = try Sweep(
            .init(
                name: "sleeper", sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0,
                trialLength: .milliseconds(30), cores: 2)
        ) {
            usleep(1_000)
        }.run(observer: progress)
        progress.finish()
        let lines = written.lines
        let clear = "\r\u{1B}[2K"
        #expect(lines.first?.hasPrefix(clear + "poolsize: measuring W and C with one worker (at most ") == true)
        let trials = lines.filter { $0.contains("poolsize: trial ") }.map { $0.dropFirst(clear.count) }
        #expect(
            Set(trials) == ["poolsize: trial 1 of 2, 1 queue", "poolsize: trial 2 of 2, 2 queues"]
                || Set(trials) == ["poolsize: trial 1 of 2, 2 queues", "poolsize: trial 2 of 2, 1 queue"], "\(trials)")
        #expect(lines.last == clear)
    }

    /// Where standard error is no terminal (a test run's pipe), `run()` shows nothing.
    @Test func nothingWhereStandardErrorIsNoTerminal() {
        #expect(isatty(STDERR_FILENO) == 1 || TerminalProgress.forStandardError() == nil)
    }
}
