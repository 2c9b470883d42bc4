import CPoolSizeSys
import Foundation
import PoolSizeModel
import Synchronization

/// A server a sweep starts at one pool size and stops after the trial (`ServerCommand` gives
/// its argument vector; no shell runs). It leads a session of its own, so it and everything it
/// forks share one session id, a daemon's double fork that leaves the process group included,
/// and no terminal's signal reaches it. It runs under a guardian process
/// (`poolsize_spawn_guarded_session`, the one `observe -- CMD` uses): the subreaper of everything
/// the server starts, which stops whatever is left below it, a descendant that called setsid
/// itself included, when `stop` ends the server or poolsize dies, SIGKILL included. The server
/// dies with the guardian (PR_SET_PDEATHSIG). Its stdout and stderr go to pipes whose readers
/// keep the last 16 KiB each (`OutputTail`), for the error that shows why it would not start.
package final class ServerProcess: @unchecked Sendable {
    // @unchecked: `outcome` is only touched under `lock`.
    /// The server's process id, which is also its session id and its process group id.
    package var pid: Int32 { child.pid }
    /// The argument vector it runs.
    package let arguments: [String]
    /// The signal that stops it (SIGTERM unless the user named another), before SIGKILL.
    package let stopSignal: Int32
    private let child: GuardedChild
    private let lock = NSLock()
    /// Serialises `stop`, which waits outside `lock`.
    private let stopping = NSLock()
    private var outcome: ChildOutcome?

    /// What a readiness probe saw: whether the server is ready, and what it answered (for the
    /// error when it never is: `HTTP 503 Service Unavailable`, `no answer: Connection refused`).
    package typealias Probe = () -> (ready: Bool, answer: String)

    /// Servers running now, each with its stop signal, and whether `stopAll` has begun (then no
    /// new one starts).
    static let live = Mutex<(running: [Int32: Int32], stopping: Bool)>(([:], false))

    /// Starts `arguments` (the program found on the environment's `PATH` unless it holds a `/`)
    /// and returns once the program runs, to be stopped with `stopSignal`; errors name the
    /// setting (`server`).
    package init(
        arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        stopSignal: Int32 = SIGTERM
    ) throws(PoolSizeError) {
        guard let program = arguments.first else {
            throw .invalidParameter(.server, message: "is empty; give the command that starts the server")
        }
        let executable = try Self.resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        do {
            child = try GuardedChild(
                executable: executable, arguments: arguments, environment: environment, session: true
            ) { spawn in
                // Spawned and made known to `stopAll` in one step, and none once it has begun.
                Self.live.withLock { state in
                    guard !state.stopping else { return nil }
                    let spawned = spawn()
                    if spawned.result == 0 { state.running[spawned.pid] = stopSignal }
                    return spawned
                }
            }
        } catch {
            switch error {
            case let .pipes(errno):
                throw .measurementFailed(
                    "cannot create pipes for the server's output (\(String(cString: strerror(errno))))")
            case .refused:
                throw .invalidParameter(.server, message: "not started: poolsize is stopping")
            case .spawn where Self.isStopping:
                throw .invalidParameter(.server, message: "not started: poolsize is stopping")
            case let .spawn(errno):
                throw .invalidParameter(
                    .server,
                    message: "cannot start '\(TerminalText.escape(program))': \(String(cString: strerror(errno)))")
            }
        }
        self.arguments = arguments
        self.stopSignal = stopSignal
    }

    deinit { stop(graceSeconds: 1) }

    /// Whether the server has exited (crashed, or stopped): a trial it did not live through is
    /// not a measurement of it.
    package var hasExited: Bool { exitOutcome != nil }

    /// How the server ended, nil while it runs. A server that daemonises runs on after its
    /// first process exits with status 0 (a double fork: the child that serves keeps the
    /// session), so that exit ends it only once nothing is left in its session; any other exit
    /// ends it at once.
    package var exitOutcome: ChildOutcome? {
        let ended = child.exitStatus.map(ChildOutcome.init(waitStatus:))
        if ended == .exited(code: 0), lock.withLock({ outcome == nil }), !Self.processes(inSession: pid).isEmpty {
            return nil
        }
        return ended
    }

    /// The last of what the server wrote on stdout and on stderr so far (16 KiB of each at most).
    package var output: (standardOutput: String, standardError: String) {
        child.output(waitingSeconds: lock.withLock { outcome != nil } ? 1 : nil)
    }

    /// Asks `probe` every `intervalSeconds` until it says the server is ready. Fails at once
    /// when the server exits first (how it ended, and its last lines of output), and after
    /// `timeoutSeconds` with the probe's last answer and the server's last lines.
    package func waitUntilReady(timeoutSeconds: Double, intervalSeconds: Double = 0.05, probe: Probe)
        throws(PoolSizeError)
    {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let ended = exitOutcome { throw exited(ended) }
            let answer = probe()
            // Checked again: on a fixed port, another process may answer for a server that died.
            if let ended = exitOutcome { throw exited(ended) }
            if answer.ready { return }
            if Date() >= deadline {
                throw .invalidParameter(
                    .server,
                    message:
                        "was not ready within \(UnitFormat.duration(timeoutSeconds)) (last probe: \(TerminalText.escape(answer.answer))); \(lastLines)"
                )
            }
            usleep(useconds_t(max(0.001, intervalSeconds) * 1e6))
        }
    }

    /// Waits, once the server answers, until its session has settled (`SessionSettling`: its
    /// workers all up and idle), at most `timeoutSeconds`; returns whether it did. A server
    /// that never goes quiet is measured after the timeout as it is.
    @discardableResult
    package func waitUntilSettled(timeoutSeconds: Double, settling: SessionSettling = SessionSettling()) -> Bool {
        settling.wait(session: pid, timeoutSeconds: timeoutSeconds) { hasExited }
    }

    /// Ends the server and everything it started: `stopSignal` to its process group and to
    /// every process in its session, up to `graceSeconds` for all of them to exit, then SIGKILL
    /// to those left; then the guardian stops whatever left the session (setsid), reaps it all
    /// and exits. Returns how the server itself ended. Safe to call more than once, and from any
    /// thread.
    @discardableResult
    package func stop(graceSeconds: Double) -> ChildOutcome {
        stopping.lock()
        defer { stopping.unlock() }
        if let outcome = lock.withLock({ outcome }) { return outcome }
        ChildProcessRunner.terminate(graceSeconds: graceSeconds, first: stopSignal) {
            Self.signal(session: pid, $0)
        } ended: {
            hasExited && Self.processes(inSession: pid).isEmpty
        }
        let ended = ChildOutcome(waitStatus: child.release())
        lock.withLock { outcome = ended }
        _ = Self.live.withLock { $0.running.removeValue(forKey: pid) }
        return ended
    }

    /// Stops every server running now, with its session (its stop signal, up to `graceSeconds`,
    /// then SIGKILL), and refuses new ones: an interrupted sweep calls it before it exits. Whatever
    /// left a session goes when this process exits and the guardians see it.
    /// Refuses every server start from now on, before anything else of an interrupt runs: a
    /// start cut short by the interrupt's reaping then fails as "stopping", never as the
    /// server's own failure (`isStopping`).
    package static func beginStopping() { live.withLock { $0.stopping = true } }

    /// Whether poolsize is stopping (an interrupt), so a server that did not start is no
    /// measurement of it.
    package static var isStopping: Bool { live.withLock { $0.stopping } }

    package static func stopAll(graceSeconds: Double = 1) {
        let running = live.withLock { state in
            state.stopping = true
            return state.running
        }
        // The first signal is each server's own; SIGKILL is everyone's.
        ChildProcessRunner.terminate(graceSeconds: graceSeconds) { number in
            for (pid, own) in running { signal(session: pid, number == SIGKILL ? SIGKILL : own) }
        } ended: {
            !running.keys.contains(where: { !processes(inSession: $0).isEmpty })
        }
    }

    /// Sends `number` to the process group `session` leads and to every process still in the
    /// session (one that left the group keeps the session). Nothing when the session is empty:
    /// its id is then free for the kernel to give to a new process.
    static func signal(session: Int32, _ number: Int32) {
        let members = processes(inSession: session)
        guard !members.isEmpty else { return }
        kill(-session, number)
        for member in members { kill(member, number) }
    }

    /// The processes alive in session `session` (`ProcReader`); a zombie is dead and not counted.
    package static func processes(inSession session: Int32) -> [Int32] {
        ProcReader.processes(inSession: session)
    }

    /// The error for a server that exited before it was ready.
    private func exited(_ ended: ChildOutcome) -> PoolSizeError {
        // Its last words are in the pipes, whose ends come once its descendants are gone too.
        _ = child.output(waitingSeconds: 0.5)
        return .invalidParameter(.server, message: "\(ended.summary) before it was ready; \(lastLines)")
    }

    /// The last lines the server wrote on stderr (else on stdout), for an error: at most three,
    /// each escaped, joined on one line. Once `stop` has run, all it wrote is read first.
    package var lastLines: String {
        // A running server's pipes have no end to wait for; a stopped one's end at once. A
        // server that crashed and is not yet stopped may have lines still in the pipe: stop it
        // before asking.
        let (out, err) = output
        return OutputExcerpt.lastLines([("stderr", err), ("stdout", out)])
    }

    /// The program's path: `program` when it holds a `/`, else the first executable file of
    /// that name in `path`'s directories.
    /// Errors name `parameter`: the server's setting, or the load tool's.
    package static func resolve(
        _ program: String, path: String, parameter: PoolSizeError.Parameter = .server
    ) throws(PoolSizeError) -> String {
        switch ChildProcessRunner.locate(program, path: path) {
        case let .success(found): return found
        case let .failure(failure):
            throw .invalidParameter(
                parameter, message: "cannot start '\(TerminalText.escape(program))': \(failure.reason)")
        }
    }
}
