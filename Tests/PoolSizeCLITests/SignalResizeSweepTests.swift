import Foundation
import Testing

/// `--resize signals` against a real gunicorn (Examples/servers' WSGI app, sync workers): the
/// arbiter is started once with one worker and sent SIGTTIN and SIGTTOU until it has each
/// trial's size of workers, counted in /proc before the trial, so every size's server has its
/// size of worker processes beside the arbiter (one thread each: threads = size + 1) and the
/// sweep ends with no server left. A forked worker imports the app after it is counted, which
/// on a busy machine outlasted a 600 ms trial ("no task finished"): `--settle 1s` gives it
/// time, and 1.5 s trials leave a window of 1.2 s (a 481 ms one with the suite's other tests
/// beside it once finished no request in fresh-clone CI). The same against Puma's cluster master. A server with no handler for the signals
/// (`poolsize serve`) is refused before any signal, since their default action would stop it.
/// gunicorn or Puma missing fails its test: scripts/install-test-servers.sh installs them.
@Suite(.serialized) struct SignalResizeSweepTests {
    /// Runs `server` resized by signals over sizes 1, 4 and 2 (and the rules' sizes on 2
    /// cores), 1.5 s trials, from a directory whose Examples/ is the repository's: its exit
    /// status, the trials' rows, machine.json, and the servers left after it.
    static func sweepResizedBySignals(_ server: String) throws -> (
        code: Int32, stderr: String, rows: [[String: String]], machine: String, left: Set<String>
    ) {
        let dir = try PostgresServer.guideDirectory(linking: ["Examples"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let before = Set(ServerGuideExampleTests.serverProcesses(in: dir))
        let result = try EndToEndTests.run(
            [
                "sweep", "--server", server, "--resize", "signals", "--settle", "1s", "--http",
                "http://127.0.0.1:{port}/", "--cores", "2", "--sizes", "1,4,2", "--search", "grid", "--repeat", "1",
                "--warmup", "0", "--trial-ms", "1500", "--quiet", "--out", run.path, "--plots",
                dir.appendingPathComponent("plots").path,
            ], directory: dir)
        let rows = (try? ServerSweepCommandTests.trials(run).rows) ?? []
        let machine = (try? String(contentsOf: run.appendingPathComponent("machine.json"), encoding: .utf8)) ?? ""
        let left = Set(ServerGuideExampleTests.serverProcesses(in: dir)).subtracting(before)
        return (result.code, result.stderr, rows, machine, left)
    }

    @Test func gunicornsWorkersFollowEachSizeAndAreCountedBack() throws {
        try ServerGuideExampleTests.requireGunicorn()
        let sweep = try Self.sweepResizedBySignals(
            "gunicorn --workers 1 -b 127.0.0.1:{port} --chdir Examples/servers wsgi_app:app")
        #expect(sweep.code == 0, "\(sweep.stderr)")
        let rows = sweep.rows
        #expect(Set(rows.compactMap { $0["pool_size"] }).isSuperset(of: ["1", "2", "4"]), "\(rows)")
        for row in rows {
            let size = try #require(row["pool_size"].flatMap { Int($0) })
            #expect(row["threads"] == String(size + 1), "\(row)")
            #expect(row["invalid_reason"] == "", "\(row)")
        }
        #expect(sweep.machine.contains("\"signals\""), "\(sweep.machine)")
        #expect(sweep.left.isEmpty)
    }

    /// The same against a real Puma in cluster mode (Examples/servers/rack_app.ru, one thread
    /// per worker, each request holding it 10 ms): its master adds and retires a worker per
    /// signal, and every trial's server has its size of worker processes, read back from
    /// /proc, with more threads at each larger size. Puma missing fails the test:
    /// scripts/install-test-servers.sh installs it.
    @Test func pumasWorkersFollowEachSizeAndAreCountedBack() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/puma"),
            "needs puma: scripts/install-test-servers.sh (apt-get install puma)")
        let sweep = try Self.sweepResizedBySignals(
            "puma -w 1 -t 1:1 -b tcp://127.0.0.1:{port} Examples/servers/rack_app.ru")
        #expect(sweep.code == 0, "\(sweep.stderr)")
        let rows = sweep.rows
        #expect(Set(rows.compactMap { $0["pool_size"] }).isSuperset(of: ["1", "2", "4"]), "\(rows)")
        var threads: [Int: Int] = [:]
        for row in rows {
            let size = try #require(row["pool_size"].flatMap { Int($0) })
            #expect(row["server_processes"] == String(size), "\(row)")
            #expect(row["invalid_reason"] == "", "\(row)")
            threads[size] = row["threads"].flatMap { Int($0) }
        }
        let bySize = threads.sorted { $0.key < $1.key }.map(\.value)
        #expect(bySize.count >= 3 && zip(bySize, bySize.dropFirst()).allSatisfy { $0 < $1 }, "\(threads)")
        #expect(sweep.left.isEmpty)
    }

    @Test func aServerWithoutHandlersIsRefusedBeforeAnySignal() throws {
        let result = try EndToEndTests.run([
            "sweep", "--server", "\(EndToEndTests.binary.path) serve --threads 2 --port {port} --quiet", "--resize",
            "signals", "--http", "http://127.0.0.1:{port}/", "--sizes", "1,2", "--search", "grid", "--repeat", "1",
            "--trial-ms", "300", "--quiet",
        ])
        #expect(result.code == 64, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.hasPrefix("error: ") } ?? ""
        #expect(
            line.hasPrefix("error: --resize: signals sends SIGTTIN and SIGTTOU, and the server's process "), "\(line)")
        #expect(line.contains(" has no handler for them (/proc/"), "\(line)")
        #expect(
            line.hasSuffix(
                "status SigCgt); they resize gunicorn's arbiter and Puma's cluster master started as the server's command itself: give your own resize command"
            ), "\(line)")
    }
}
