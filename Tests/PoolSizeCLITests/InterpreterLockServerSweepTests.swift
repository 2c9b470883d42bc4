import Foundation
import Testing

/// Issue 45, item 1, end to end: a sweep of a real gunicorn gthread worker (Examples/servers'
/// WSGI app: one CPython process whose threads are the pool) records at every size the one
/// process that did work and the runtime observe recognises in it, CPython with its lock: the
/// figures the recommendation names the interpreter lock from. Nothing about speed is asserted
/// (whether the knee falls below the formula depends on how busy the machine is; the
/// explanation is tested on fixed trials in RecommenderTests and SizingProseTests). gunicorn
/// missing fails the test: scripts/install-test-servers.sh installs it.
@Suite(.serialized) struct InterpreterLockServerSweepTests {
    @Test func aGunicornGthreadSweepRecordsOneCPythonProcessAtEverySize() throws {
        try ServerGuideExampleTests.requireGunicorn()
        let dir = try PostgresServer.guideDirectory(linking: ["Examples"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run(
            [
                "sweep", "--server",
                "gunicorn -k gthread --workers 1 --threads {size} -b 127.0.0.1:{port} --chdir Examples/servers wsgi_app:app",
                "--http", "http://127.0.0.1:{port}/", "--cores", "2", "--sizes", "1,4", "--repeat", "1", "--warmup",
                "0", "--trial-ms", "1000", "--quiet", "--out", run.path, "--plots",
                dir.appendingPathComponent("plots").path,
            ], directory: dir)
        #expect(result.code == 0, "\(result.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows
        // 1 and 4, and the rules' 2, 3 and 5 on 2 cores.
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "2", "3", "4", "5"])
        for row in rows {
            #expect(row["server_processes"] == "1", "\(row)")
            #expect(row["server_interpreter_lock"]?.hasPrefix("cpython 3.") == true, "\(row)")
            // The arbiter holds the listening socket beside its worker: a connection per request.
            #expect(row["server_connection_per_request"] == "1", "\(row)")
        }
        #expect(
            result.stdout.contains(
                "\nload: a new connection for each request (the server's processes share its listening socket; a kept-alive connection would stay on the process that accepted it)\n"
            ), "\(result.stdout)")
        #expect(ServerGuideExampleTests.serverProcesses(in: dir).isEmpty, "a server outlived the sweep")
    }
}
