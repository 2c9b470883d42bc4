import Foundation
import PoolSizeHTTP
import PoolSizeModel
import PoolSizeProcess
import Testing

/// A real server (python3's http.server) through the whole lifecycle a server sweep runs:
/// the command and URL filled in with a free port, started, probed until a 2xx, stopped. The
/// waits are generous and bounded; the assertions are about answers and what is left running.
@Suite struct ServerReadinessTests {
    /// A directory for the server to list, empty.
    static func emptyDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "poolsize-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Starts python3's http.server on a free port, through `ServerCommand` and `ServerURL`.
    static func start(path: String, directory: String) throws -> (ServerProcess, HTTPReadinessProbe) {
        let command = try ServerCommand(
            "python3 -u -m http.server --bind 127.0.0.1 --directory \(directory) {port}", allowsNoSize: true)
        let url = try ServerURL("http://127.0.0.1:{port}\(path)", server: command)
        let port = try ServerProcess.freeLoopbackPort()
        let server = try ServerProcess(arguments: command.arguments(size: 1, port: port))
        let probe = try HTTPReadinessProbe(target: HTTPTarget(url: url.url(port: port)))
        return (server, probe)
    }

    @Test func aRealServerBecomesReadyAndIsStopped() throws {
        let directory = try Self.emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (server, probe) = try Self.start(path: "/", directory: directory)
        defer { server.stop(graceSeconds: 5) }
        try server.waitUntilReady(timeoutSeconds: 60, probe: probe.check)
        let answer = probe.check()
        #expect(answer.ready && answer.answer == "HTTP 200 OK")
        #expect(!server.hasExited)
        #expect(server.stop(graceSeconds: 30) == .signaled(signal: SIGTERM))
        #expect(ServerProcess.processes(inSession: server.pid).isEmpty)
        #expect(!probe.check().ready)
    }

    /// A server that answers, but not with a 2xx, is not ready: the timeout's error shows
    /// the answer and the server's last line.
    @Test func aNon2xxAnswerIsNotReady() throws {
        let directory = try Self.emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (server, probe) = try Self.start(path: "/missing", directory: directory)
        defer { server.stop(graceSeconds: 5) }
        // Its first answer, once it listens (up to a minute).
        for _ in 0..<600 where !probe.check().answer.hasPrefix("HTTP ") { usleep(100_000) }
        var message = ""
        do {
            try server.waitUntilReady(timeoutSeconds: 1, probe: probe.check)
        } catch {
            message = error.description
        }
        #expect(
            message.hasPrefix(
                "error: `server`: was not ready within 1 s (last probe: HTTP 404 File not found); its last lines on stderr: '"
            ))
        #expect(message.contains("\"GET /missing HTTP/1.1\" 404"))
    }

    /// Nothing listening: not ready, and why.
    @Test func aClosedPortIsNotReady() throws {
        let port = try ServerProcess.freeLoopbackPort()
        let answer = try HTTPReadinessProbe(target: HTTPTarget(url: "http://127.0.0.1:\(port)/")).check()
        #expect(!answer.ready)
        #expect(answer.answer.hasPrefix("no answer: "))
    }
}
