import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// What a child process did: how it ended and what it printed.
package struct ChildRun: Equatable, Sendable {
    package var outcome: ChildOutcome
    package var standardOutput: String
    package var standardError: String
    package var seconds: Double
}

/// The one way poolsize runs another program (gnuplot, a probe's child, a task's command):
/// under a watchdog that sends SIGTERM when the child has not exited after `timeoutSeconds`,
/// then SIGKILL one second later, so whatever the child does (hang, trap, spin, ignore
/// SIGTERM), `run` returns. The argument vector goes to the program as is; no shell is involved.
///
/// Output goes to temporary files, not pipes: a pipe read can block on a child (or grandchild)
/// that holds the write end, a file read cannot.
package struct ChildProcessRunner: Sendable {
    package var timeoutSeconds: Double

    /// Children running now, their output files, and whether `stopAll` has begun (then no new
    /// one starts).
    static let live = Mutex<(running: Set<Int32>, files: Set<URL>, stopping: Bool)>(([], [], false))

    /// Stops every child running now (SIGKILL: an interrupted process exits right after) and
    /// refuses new ones, so no gnuplot outlives an interrupted sweep; removes their output files,
    /// which `run` would have removed as it returned (the process exits before it does).
    package static func stopAll() {
        let (running, files) = live.withLock { state in
            state.stopping = true
            return (state.running, state.files)
        }
        for pid in running { kill(pid, SIGKILL) }
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    package init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
    }

    /// - Parameter environment: the child's environment; this process's when nil.
    package func run(executable: URL, arguments: [String], environment: [String: String]? = nil) -> ChildRun {
        let files = FileManager.default.temporaryDirectory
        let outURL = files.appendingPathComponent("poolsize-child-\(UUID()).out")
        let errURL = files.appendingPathComponent("poolsize-child-\(UUID()).err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
            Self.live.withLock { $0.files.subtract([outURL, errURL]) }
        }
        // Created and made known to `stopAll` in one step, and none once it has begun: an
        // interrupted process exits before this returns, and its defer never runs.
        let created: Bool? = Self.live.withLock { state in
            guard !state.stopping else { return nil }
            guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
                FileManager.default.createFile(atPath: errURL.path, contents: nil)
            else { return false }
            state.files.formUnion([outURL, errURL])
            return true
        }
        guard let created else {
            return ChildRun(
                outcome: .failedToStart(reason: "interrupted"), standardOutput: "", standardError: "", seconds: 0)
        }
        guard created, let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL)
        else {
            return ChildRun(
                outcome: .failedToStart(reason: "cannot create temporary files in \(files.path)"), standardOutput: "",
                standardError: "", seconds: 0)
        }
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let t0 = Date()
        if Self.live.withLock({ $0.stopping }) {
            return ChildRun(
                outcome: .failedToStart(reason: "interrupted"), standardOutput: "", standardError: "", seconds: 0)
        }
        do {
            try process.run()
        } catch {
            return ChildRun(
                outcome: .failedToStart(reason: "\(executable.path): \(error.localizedDescription)"),
                standardOutput: "", standardError: "", seconds: 0)
        }
        let pid = process.processIdentifier
        // A stop that came between the check above and here still reaches this child.
        if Self.live.withLock({ state in
            state.running.insert(pid); return state.stopping
        }) {
            kill(pid, SIGKILL)
        }
        defer { _ = Self.live.withLock { $0.running.remove(pid) } }

        let outcome: ChildOutcome
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            kill(process.processIdentifier, SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                // Reaping a SIGKILLed process is immediate; the bound is only for a kernel in trouble.
                _ = exited.wait(timeout: .now() + 2)
            }
            outcome = .timedOut(afterSeconds: timeoutSeconds)
        } else if process.terminationReason == .uncaughtSignal {
            outcome = .signaled(signal: process.terminationStatus)
        } else {
            outcome = .exited(code: process.terminationStatus)
        }
        let seconds = Date().timeIntervalSince(t0)
        let text = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return ChildRun(outcome: outcome, standardOutput: text(outURL), standardError: text(errURL), seconds: seconds)
    }
}
