import Foundation
import PoolSizeProcess
import Testing

/// When a server that answers has finished starting (`SessionSettling`): the rule on readings
/// made by hand, then real sessions, a shell that stays busy for a while before it idles and
/// one that never idles. And which processes hold a listening socket (`ProcReader.listeners`),
/// on a real forking listener. Each test stops what it started, also when it fails.
@Suite struct SessionSettlingTests {
    typealias Reading = SessionSettling.Reading

    @Test func aWindowIsQuietWhenNothingChangesAndLittleCPUIsUsed() {
        let rule = SessionSettling(windowSeconds: 0.1, quietWindows: 2, busyShare: 0.1)
        let before = Reading(threads: [10: 3, 11: 5], openFiles: [10: 7, 11: 14], cpuNanoseconds: 500_000_000)
        var after = before
        // 10 ms in a 100 ms window: a tenth of a core, the most a quiet window may use.
        after.cpuNanoseconds += 10_000_000
        #expect(rule.isQuiet(from: before, to: after, seconds: 0.1))
        after.cpuNanoseconds += 1
        #expect(!rule.isQuiet(from: before, to: after, seconds: 0.1), "past a tenth of a core")
        #expect(rule.isQuiet(from: before, to: after, seconds: 0.2), "the same CPU over a longer window")
        var opened = before
        opened.openFiles[11] = 15
        #expect(!rule.isQuiet(from: before, to: opened, seconds: 0.1), "a worker opened a database connection")
        var started = before
        started.threads[12] = 1
        started.openFiles[12] = 3
        #expect(!rule.isQuiet(from: before, to: started, seconds: 0.1), "a worker was forked")
        var threaded = before
        threaded.threads[10] = 4
        #expect(!rule.isQuiet(from: before, to: threaded, seconds: 0.1), "a thread started")
        #expect(!rule.isQuiet(from: Reading(), to: Reading(), seconds: 0.1), "no process is no server")
    }

    /// A process that for 0.6 s spins on its own thread and opens a file every 20 ms, as a worker
    /// loading its code and opening its connections does, then sleeps: not settled while it
    /// starts (every window sees files opened, whatever CPU it is given), settled once it
    /// sleeps. A shell that loops forever never settles. (A shell forking `date` in a loop is
    /// no stand-in: its children's CPU is not its threads', and between forks it looks idle.)
    @Test func aSessionSettlesOnlyOnceItsStartingWorkIsDone() throws {
        let script = """
            import time
            start, files, last = time.monotonic(), [], 0.0
            while time.monotonic() - start < 0.6:
                if time.monotonic() - last >= 0.02:
                    files.append(open("/dev/null")); last = time.monotonic()
            time.sleep(30)
            """
        let busy = try ServerProcess(arguments: ["python3", "-c", script])
        defer { busy.stop(graceSeconds: 1) }
        let start = Date()
        #expect(busy.waitUntilSettled(timeoutSeconds: 20))
        #expect(Date().timeIntervalSince(start) >= 0.5, "settled while it was still looping")
        let spinning = try ServerProcess(arguments: ["/bin/sh", "-c", "while :; do :; done"])
        defer { spinning.stop(graceSeconds: 1) }
        #expect(!spinning.waitUntilSettled(timeoutSeconds: 0.6))
    }

    /// A Python listener that forks two children after it listens: all three hold the socket,
    /// as gunicorn's arbiter and workers do; a listener that does not fork is alone. It listens
    /// on 127.0.0.2, never answering, so that no other test's client on 127.0.0.1 can meet it
    /// on a port that test's own server has just left.
    @Test func everyProcessHoldingTheListeningSocketIsFound() throws {
        let port = try ServerProcess.freeLoopbackPort()
        let script = """
            import os, socket, sys, time
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.2", int(sys.argv[1]))); s.listen()
            for _ in range(int(sys.argv[2])):
                if os.fork() == 0:
                    break
            print("listening", flush=True)
            time.sleep(30)
            """
        for (forks, holders) in [(2, 3), (0, 1)] {
            let server = try ServerProcess(arguments: ["python3", "-c", script, String(port), String(forks)])
            defer { server.stop(graceSeconds: 1) }
            try server.waitUntilReady(timeoutSeconds: 20) {
                (server.output.standardOutput.components(separatedBy: "listening").count > holders, "not yet")
            }
            let members = ServerProcess.processes(inSession: server.pid)
            #expect(ProcReader.listeners(onPort: port, among: members).count == holders, "\(forks) forks")
            #expect(ProcReader.listeners(onPort: port + 1 == 65536 ? 1 : port + 1, among: members).isEmpty)
            server.stop(graceSeconds: 1)
        }
    }
}
