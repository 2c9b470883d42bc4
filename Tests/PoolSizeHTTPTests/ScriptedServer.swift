import Foundation
import PoolSizeProcess

/// A small HTTP server in python3 for the server sweep's tests, written to a scratch directory:
/// `python3 -u server.py MODE SIZE PORT PIDS`. It answers 200 with `ok`, and by `MODE`:
/// `fail` answers 500 after its first answer (the readiness probe's), `burn` uses 2 ms of its
/// thread's CPU on each request before it answers, `crash` exits with
/// status 3 after 20 answers saying so on stderr, `stall` serves one request at a time and holds
/// the one numbered `SIZE` (counting from the first it receives) 300 ms before it answers, `ignore-term` ignores SIGTERM, `daemon`
/// double-forks (the first process exits 0 at once, the child leaves its group, the grandchild
/// serves in the session). Every process that serves, and the first, appends its pid to `PIDS`,
/// so a test can check that none is left and kill what is.
struct ScriptedServer {
    /// The scratch directory holding the script and the pid file.
    let directory: String

    /// The script's path.
    var script: String { directory + "/server.py" }
    /// Where the processes write their pids, one a line.
    var pids: String { directory + "/pids" }

    /// A fresh scratch directory with the script in it.
    init() throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "poolsize-scripted-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.source.write(toFile: script, atomically: true, encoding: .utf8)
    }

    /// The `--server` command line for `mode`, placeholders unfilled.
    func command(_ mode: String) -> String {
        "python3 -u \(script) \(mode) {size} {port} \(pids)"
    }

    /// The pids written so far.
    var recordedPIDs: [Int32] {
        let text = (try? String(contentsOfFile: pids, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).compactMap { Int32($0) }
    }

    /// The recorded processes still alive (zombies are not), and every process alive in the
    /// session of the first one.
    var leftovers: [Int32] {
        let recorded = recordedPIDs
        var alive = Set(recorded.filter(Self.isAlive))
        if let leader = recorded.first { alive.formUnion(ServerProcess.processes(inSession: leader)) }
        return alive.sorted()
    }

    /// Kills whatever is left (a failed test's servers) and removes the scratch directory.
    func cleanUp() {
        for pid in leftovers { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Whether `pid` runs (exists and is no zombie).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.range(of: ") ", options: .backwards)
        else { return false }
        let state = stat[close.upperBound...].prefix(1)
        return state != "Z" && state != "X"
    }

    static let source = """
        import contextlib, http.server, os, signal, sys, threading, time
        mode, size, port, pids = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

        def note():
            with open(pids, "a") as f:
                f.write("%d\\n" % os.getpid())

        note()
        if mode == "ignore-term":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if mode == "daemon":
            if os.fork() > 0:
                os._exit(0)
            os.setpgid(0, 0)
            if os.fork() > 0:
                os._exit(0)
            note()
        answered = 0
        lock = threading.Lock()
        serve = threading.Lock() if mode == "stall" else contextlib.nullcontext()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # The headers and the body go out in two writes: without this, the body waits for
            # the client's delayed ACK of the headers.
            disable_nagle_algorithm = True

            def do_GET(self):
                with serve:
                    self.answer()

            def answer(self):
                global answered
                with lock:
                    answered += 1
                    count = answered
                    if mode == "crash" and count > 20:
                        print("crashing on purpose", file=sys.stderr, flush=True)
                        os._exit(3)
                if mode == "burn":
                    started = time.thread_time()
                    while time.thread_time() - started < 0.002:
                        pass
                if mode == "stall" and count == size:
                    time.sleep(0.3)
                body = b"ok\\n"
                self.send_response(500 if mode == "fail" and count > 1 else 200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

        print("serving", size, "threads on", port, flush=True)
        Server(("127.0.0.1", port), Handler).serve_forever()
        """
}
