import Foundation
import PoolSizeModel
import PoolSizeProcess
import Testing

/// A server's lifecycle against shell stand-ins: readiness, a server that exits or never gets
/// ready, the stop's escalation, a daemon's double fork, a crash. The waits are generous and
/// bounded; every assertion is about an outcome (an exact message, an exit status, which
/// processes are left), none about time. Each test stops what it started, also when it fails.
@Suite struct ServerProcessTests {
    /// `/bin/sh -c script`.
    static func shell(_ script: String) throws -> ServerProcess {
        try ServerProcess(arguments: ["/bin/sh", "-c", script])
    }

    /// A probe that is ready once the server printed `marker` on stdout.
    static func printed(_ marker: String, by server: ServerProcess) -> ServerProcess.Probe {
        { (server.output.standardOutput.contains(marker), "not printed yet") }
    }

    /// Whether process `pid` exists (a zombie included).
    static func exists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    /// A file name no other test uses.
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "poolsize-server-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
        ).path
    }

    /// The process id written to `path`, once it is there (up to 30 s).
    static func pid(in path: String) -> Int32? {
        for _ in 0..<3_000 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    /// A server that never answers: the error names the timeout, the probe's last answer and
    /// the last lines the command printed on stderr.
    @Test func aServerThatNeverAnswersTimesOutWithItsLastLines() throws {
        let server = try Self.shell("echo starting >&2; echo 'still loading' >&2; exec sleep 300")
        defer { server.stop(graceSeconds: 5) }
        var message = ""
        do {
            try server.waitUntilReady(timeoutSeconds: 0.5) {
                // Not ready, and only once its lines are read, so the error can show them.
                for _ in 0..<3_000 where !server.output.standardError.contains("still loading") { usleep(10_000) }
                return (false, "no answer: Connection refused")
            }
        } catch {
            message = error.description
        }
        #expect(
            message
                == "error: `server`: was not ready within 500 ms (last probe: no answer: Connection refused); its last lines on stderr: 'starting' | 'still loading'"
        )
        #expect(!server.hasExited)
        #expect(server.stop(graceSeconds: 5) == .signaled(signal: SIGTERM))
    }

    /// A server that exits at once fails the wait with how it ended and what it said, not
    /// with a timeout (which is an hour here).
    @Test func aServerThatExitsAtOnceFailsWithItsStderr() throws {
        let server = try Self.shell(
            "echo 'listening on 127.0.0.1:80' ; echo 'bind: Address already in use' >&2; exit 3")
        defer { server.stop(graceSeconds: 5) }
        var message = ""
        do {
            try server.waitUntilReady(timeoutSeconds: 3_600) { (false, "no answer: Connection refused") }
        } catch {
            message = error.description
        }
        #expect(
            message
                == "error: `server`: exited with status 3 before it was ready; its last lines on stderr: 'bind: Address already in use'"
        )
        #expect(server.exitOutcome == .exited(code: 3))
    }

    /// Without stderr, the last lines on stdout are shown.
    @Test func aSilentServerShowsItsStdout() throws {
        let server = try Self.shell("echo one; echo two; echo three; echo four; kill -9 $$")
        defer { server.stop(graceSeconds: 5) }
        var message = ""
        do {
            try server.waitUntilReady(timeoutSeconds: 3_600) { (false, "-") }
        } catch {
            message = error.description
        }
        #expect(
            message
                == "error: `server`: killed by SIGKILL (9) before it was ready; its last lines on stdout: 'two' | 'three' | 'four'"
        )
    }

    /// A program that is not there is one line naming it.
    @Test func aMissingProgramIsOneLine() {
        #expect(
            throws: PoolSizeError.invalidParameter(
                .server, message: "cannot start 'no-such-server-x9': no such program on PATH")
        ) {
            try ServerProcess(arguments: ["no-such-server-x9", "8"])
        }
    }

    /// SIGTERM first: a server that exits on it ends with its own status, within the grace.
    @Test func stopSendsSIGTERMFirst() throws {
        let server = try Self.shell("trap 'exit 7' TERM; echo armed; while :; do sleep 1; done")
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        #expect(server.stop(graceSeconds: 60) == .exited(code: 7))
        #expect(ServerProcess.processes(inSession: server.pid).isEmpty)
    }

    /// A server that ignores SIGTERM, with a child that ignores it too, is killed after the
    /// grace: SIGKILL ends it, and nothing is left in its session. Stopping again says the same.
    @Test func aServerIgnoringSIGTERMIsKilledWithItsSession() throws {
        let server = try Self.shell("trap '' TERM; sleep 300 & echo armed; wait")
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        #expect(ServerProcess.processes(inSession: server.pid).count == 2)
        #expect(server.stop(graceSeconds: 0.2) == .signaled(signal: SIGKILL))
        #expect(ServerProcess.processes(inSession: server.pid).isEmpty)
        #expect(server.stop(graceSeconds: 0.2) == .signaled(signal: SIGKILL))
        #expect(server.hasExited)
    }

    /// A server whose name is not UTF-8 (prctl sets whatever bytes it is given) is still found
    /// in its session, so `stop` sends it SIGTERM rather than leaving it to the guardian's
    /// SIGKILL; it ends with its own status.
    @Test func aServerNamedInBytesThatAreNotUTF8IsStillFound() throws {
        let script = Self.scratch("named.py")
        defer { try? FileManager.default.removeItem(atPath: script) }
        try """
        import ctypes, os, signal, time
        ctypes.CDLL(None).prctl(15, b"srv\\xff\\xfe", 0, 0, 0)
        # os._exit: the stop signals the group and the session, so a second SIGTERM may come
        # while an orderly exit unwinds, when the handler is gone.
        signal.signal(signal.SIGTERM, lambda *_: os._exit(9))
        print("armed", flush=True)
        time.sleep(300)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let server = try ServerProcess(arguments: ["python3", script])
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        #expect(ServerProcess.processes(inSession: server.pid) == [server.pid])
        #expect(server.stop(graceSeconds: 60) == .exited(code: 9))
    }

    /// A daemon's double fork: one process left the server's group but kept its session, and
    /// one left the session too (setsid). Both are gone after `stop`: the first by the
    /// session, the second by the guardian below which it still runs.
    @Test func aDaemonisingServerLeavesNothingBehind() throws {
        let (grouped, escaped) = (Self.scratch("group"), Self.scratch("session"))
        defer { for path in [grouped, escaped] { try? FileManager.default.removeItem(atPath: path) } }
        let leaveGroup =
            "import os, time; os.setpgid(0, 0); open('\(grouped)', 'w').write(str(os.getpid())); time.sleep(300)"
        let server = try Self.shell(
            "(python3 -c \"\(leaveGroup)\" &); (setsid sh -c 'echo $$ > \(escaped); exec sleep 300' &); echo armed; exec sleep 300"
        )
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        let left = try #require(Self.pid(in: grouped))
        let detached = try #require(Self.pid(in: escaped))
        let session = ServerProcess.processes(inSession: server.pid)
        #expect(session.contains(left) && !session.contains(detached))
        #expect(Self.exists(left) && Self.exists(detached))
        server.stop(graceSeconds: 5)
        #expect(ServerProcess.processes(inSession: server.pid).isEmpty)
        #expect(!Self.exists(left), "the process that left the group is still running")
        #expect(!Self.exists(detached), "the process that left the session is still running")
    }

    /// A server whose first process exits 0 once it has forked the one that serves (a daemon)
    /// still runs while its session has a process: ready when its probe says so, stopped
    /// through the session. Once the session is empty, the exit is its end.
    @Test func aServerWhoseLeaderExitsZeroRunsWhileItsSessionDoes() throws {
        let marker = Self.scratch("daemon")
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let server = try Self.shell("(sh -c 'echo $$ > \(marker); exec sleep 300' &); exit 0")
        defer { server.stop(graceSeconds: 5) }
        let child = try #require(Self.pid(in: marker))
        for _ in 0..<3_000 where Self.exists(server.pid) { usleep(10_000) }
        try server.waitUntilReady(timeoutSeconds: 60) { (true, "HTTP 200 OK") }
        #expect(server.exitOutcome == nil && !server.hasExited)
        #expect(ServerProcess.processes(inSession: server.pid) == [child])
        #expect(server.stop(graceSeconds: 5) == .exited(code: 0))
        #expect(!Self.exists(child) && ServerProcess.processes(inSession: server.pid).isEmpty)
        // Nothing left behind: a first process that exits 0 alone has ended.
        let alone = try Self.shell("exit 0")
        defer { alone.stop(graceSeconds: 5) }
        for _ in 0..<3_000 where !alone.hasExited { usleep(10_000) }
        #expect(alone.exitOutcome == .exited(code: 0))
    }

    /// A server killed during a trial says so: it has exited, killed by the signal.
    @Test func aCrashIsDetected() throws {
        let server = try Self.shell("echo armed; exec sleep 300")
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        #expect(!server.hasExited && server.exitOutcome == nil)
        kill(server.pid, SIGSEGV)
        for _ in 0..<3_000 where !server.hasExited { usleep(10_000) }
        #expect(server.exitOutcome == .signaled(signal: SIGSEGV))
        #expect(server.stop(graceSeconds: 5) == .signaled(signal: SIGSEGV))
    }

    /// A server no one stops is stopped when the last reference goes, with its session.
    @Test func aServerLetGoIsStopped() throws {
        var pid: Int32 = 0
        do {
            let server = try Self.shell("trap '' TERM; sleep 300 & echo armed; wait")
            try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
            pid = server.pid
        }
        #expect(pid > 0 && ServerProcess.processes(inSession: pid).isEmpty)
    }

    /// The environment given is the server's whole environment, PATH included.
    @Test func theEnvironmentIsPassedAsGiven() throws {
        let server = try ServerProcess(
            arguments: ["sh", "-c", "echo \"$ONLY_THIS-$HOME\"; echo armed; exec sleep 300"],
            environment: ["ONLY_THIS": "x", "PATH": "/usr/bin:/bin"])
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: Self.printed("armed", by: server))
        #expect(server.output.standardOutput == "x-\narmed\n")
    }
}
