import Foundation
import PoolSize
import PoolSizeModel
import PoolSizeOutput
import Testing

/// `sweep --server` with a knob per pool (`--sizes workers=… --sizes threads=…`): a chain of
/// pools sized together, one server sweep per row. Flags that cannot make a chain are one line
/// and exit 64; a real chain writes chain.csv and recommendation.json with `recommended_sizes`;
/// a cell past a real database's max_connections never runs.
@Suite struct ChainSweepCommandTests {
    static let server = "srv -w {workers} -t {threads} -p {port}"

    @Test(arguments: [
        (
            ["--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1,2", "--sizes", "4"],
            "error: --sizes: '4' names no knob, beside knobs given as name=sizes; a chain's sizes are each knob's: write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"
        ),
        (
            ["--sizes", "1,2", "--sizes", "4"],
            "error: --sizes: is given 2 times; one pool's sizes are one list (--sizes 1,2,4,8), a chain's are one --sizes per knob (--sizes workers=1,2 --sizes threads=2,4,8)"
        ),
        (
            ["--sizes", "workers=1,2", "--sizes", "threads=2"],
            "error: --sizes: name=sizes sizes the knobs of a server's command; add --server with a {name} for each knob (--server 'gunicorn -w {workers} --threads {threads} …')"
        ),
        (
            ["--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1,2"],
            "error: --sizes: {threads} in --server has no sizes; add threads=2,4,8 (a list) or threads=workers (another knob's value)"
        ),
        (
            [
                "--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1,2", "--sizes",
                "threads=2", "--sizes", "pool=threads",
            ],
            "error: --sizes: knob pool has sizes, but --server has no {pool}; add {pool} where the command takes it, or drop pool=…"
        ),
        (
            [
                "--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=threads", "--sizes",
                "threads=workers",
            ],
            "error: --sizes: the ties go round in a circle (workers → threads → workers); give one of these knobs its own sizes"
        ),
        (
            [
                "--server", "srv -t {threads} -s {size} -p {port}", "--http", "http://127.0.0.1:{port}/", "--sizes",
                "threads=2",
            ],
            "error: --server: has {size} beside knobs; name that pool as a knob too ({threads} with threads=2,4,8), so each cell says what it set"
        ),
        (
            [
                "--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1", "--sizes",
                "threads=2", "--database-connections", "workers*threads",
            ],
            "error: --database-connections: counts a cell's connections against a database's limit; add --database URL, or drop it"
        ),
        (
            [
                "--server", server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1", "--sizes",
                "threads=2", "--database", "postgresql://127.0.0.1:1/db", "--database-connections", "workers*pool",
            ],
            "error: --database-connections: 'pool' is no knob; the knobs are workers and threads (write the knobs whose product is the connections, with an optional overflow: workers*pool+2)"
        ),
        (
            [
                "--server", "srv -a {a} -b {b} -c {c} -p {port}", "--http", "http://127.0.0.1:{port}/", "--sizes",
                "a=1", "--sizes", "b=1", "--sizes", "c=1,2", "--search", "adaptive",
            ],
            "error: --search: adaptive searches a chain of two knobs with sizes of their own, and this one has 3; drop --search (every cell is measured) or tie a knob to another (pool=threads)"
        ),
        (
            ["--workload", "io", "--sizes", "1,2", "--database", "postgresql://127.0.0.1:1/db"],
            "error: --database: watches the database behind a chain of pools; give one --sizes per knob of --server (--sizes workers=1,2 --sizes threads=2,4,8), or drop --database"
        ),
    ])
    func aChainThatCannotBeSweptIsOneLine(arguments: [String], message: String) {
        let result = runCLI(["sweep"] + arguments)
        #expect(result.errors == [message])
        #expect(result.code == 64)
    }

    /// A database that cannot be reached is named as `--database`, with libpq's reason.
    @Test func anUnreachableDatabaseIsNamed() {
        let result = runCLI([
            "sweep", "--server", Self.server, "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1",
            "--sizes", "threads=2", "--database", "postgresql://127.0.0.1:1/db", "--database-connections",
            "workers*threads",
        ])
        #expect(result.code == 64)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.hasPrefix("error: --database: cannot connect: ") == true)
        #expect(result.errors.first?.hasSuffix("; start the server, or correct the host and port") == true)
    }

    /// `poolsize serve` as a chain of two pools in one process: event loops × worker threads that
    /// hold a request through its 2 ms delay. One worker thread serves at most 1/2.5 ms = 400
    /// requests/s, four serve four times as many: the answer takes 4 workers, whatever the loops.
    @Test func aChainOfTwoPoolsIsSweptCellByCell() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server",
            "\(EndToEndTests.binary.path) serve --threads {loops} --workers {workers} --port {port} --cpu 500us --delay 2ms --quiet",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "loops=1,2", "--sizes", "workers=1,4", "--repeat", "1",
            "--trial-ms", "500", "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\(run.path)\n"))
        let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "loops,workers,connections,status,trials,throughput_per_s,p99_latency_us,errors,db_peak_connections,db_wait,db_wait_share,row,reason"
        )
        #expect(
            lines.dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false).prefix(4).joined(separator: ",")
            } == [
                "1,1,,measured", "1,4,,measured", "2,1,,measured", "2,4,,measured",
            ])
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("recommendation.json"))) as? [String: Any]
        let sizes = try #require(json?["recommended_sizes"] as? [String: Int])
        #expect(sizes["workers"] == 4, "\(csv)")
        #expect(json?["kind"] as? String == "chain")
        for row in ["loops-1", "loops-2"] {
            let trials = run.appendingPathComponent("rows/\(row)/trials.csv")
            #expect(FileManager.default.fileExists(atPath: trials.path), "\(row) has no trials.csv")
        }
        #expect(result.stdout.contains("recommended sizes: loops="))
        #expect(result.stdout.contains("binding layer: "))
    }
}

extension ChainSweepCommandTests {
    /// Ctrl-C in the second row keeps the first row's run whole; `--resume DIR` alone rebuilds
    /// the chain from its record, runs the rest and leaves the first row's trials as they were.
    @Test func anInterruptedChainResumes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-resume-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let flags = [
            "sweep", "--server",
            "\(EndToEndTests.binary.path) serve --threads {loops} --workers {workers} --port {port} --cpu 500us --delay 2ms --quiet",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "loops=1,2", "--sizes", "workers=1,2,4", "--repeat", "1",
            "--trial-ms", "500", "--quiet", "--plots", dir.appendingPathComponent("plots").path,
        ]
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = flags + ["--out", run.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Interrupted once the second row has a trial on disk (up to two minutes).
        let second = run.appendingPathComponent("rows/loops-2/trials.csv")
        for _ in 0..<2_400 {
            let lines = (try? String(contentsOf: second, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 2 || !process.isRunning { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGINT)
        #expect(process.awaitExit().code == 130)
        let notice = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            notice.contains("'poolsize sweep --resume \(run.path)' (with the same flags) runs the rest"), "\(notice)")
        let first = try String(contentsOf: run.appendingPathComponent("rows/loops-1/trials.csv"), encoding: .utf8)
        // --resume alone: the chain is rebuilt from chain.json and the rows' plans.
        let resumed = try EndToEndTests.run(["sweep", "--resume", run.path, "--quiet"])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        #expect(try String(contentsOf: run.appendingPathComponent("rows/loops-1/trials.csv"), encoding: .utf8) == first)
        let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").dropFirst().allSatisfy { $0.contains(",measured,") }, "\(csv)")
        let rows = try String(contentsOf: second, encoding: .utf8).split(separator: "\n").count
        #expect(rows == 4, "the second row measured \(rows - 1) trials, not its 3 sizes")
    }
}

extension ChainSweepCommandTests {
    /// Past 15 cells the chain is searched: fewer cells measured than the grid, rows continued
    /// with the sizes the search adds, W/C measured once. `poolsize serve`'s worker threads each
    /// serve 400 requests/s, so the answer has the most workers, whatever the loops; each request
    /// is 100 µs of CPU, so 5 workers need a fifth of a core and a busy machine still tells 5 from 4.
    @Test func aChainOfTwentyCellsIsSearched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-search-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server",
            "\(EndToEndTests.binary.path) serve --threads {loops} --workers {workers} --port {port} --cpu 100us --delay 2400us --quiet",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "loops=1,2,3,4", "--sizes", "workers=1,2,3,4,5",
            "--repeat", "1", "--trial-ms", "400", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
        let statuses = csv.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)[3]
        }
        let measured = statuses.filter { $0 == "measured" }.count
        #expect(statuses.count == 20)
        #expect(measured >= 5 && measured <= 14, "\(csv)")
        #expect(statuses.filter { $0 == "not run" }.count == 20 - measured, "\(csv)")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("recommendation.json"))) as? [String: Any]
        let sizes = try #require(json?["recommended_sizes"] as? [String: Int])
        #expect(sizes["workers"] == 5, "\(csv)")
        // One low-load phase: the first row's; the others were given its W/C.
        let rows = try FileManager.default.contentsOfDirectory(atPath: run.appendingPathComponent("rows").path)
        #expect(rows.count >= 2, "\(rows)")
        let estimates = try rows.map {
            try String(contentsOf: run.appendingPathComponent("rows/\($0)/lowload.json"), encoding: .utf8)
        }
        #expect(Set(estimates).count == 1, "\(estimates)")
    }
}

extension ChainSweepCommandTests {
    /// A chain given a credential (here the URL's password) records it masked, and `--resume DIR`
    /// alone then says to give the flags again, exit 64, before anything runs.
    @Test func aChainWithACredentialIsNotResumedFromItsRecordAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-withheld-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let space = try #require(try KnobSpace.parse(["workers=1,2", "threads=2"]))
        let chain = try ChainSweep(
            space: space,
            target: .server("srv -w {workers} -t {threads} -p {port}", url: "http://user:s3cret@127.0.0.1:{port}/"),
            database: nil, connections: nil)
        let record = ChainRecord(chain, searching: false, runID: "20261128-120000-chain")
        #expect(record.target.withheld)
        let text = JSONExport.serialize(record)
        #expect(!text.contains("s3cret"))
        try text.write(to: dir.appendingPathComponent(ChainRecord.fileName), atomically: true, encoding: .utf8)
        try "workers,threads\n".write(to: dir.appendingPathComponent("chain.csv"), atomically: true, encoding: .utf8)
        #expect(try ChainRecord.load(dir) == record)
        let result = runCLI(["sweep", "--resume", dir.path])
        #expect(result.code == 64)
        #expect(
            result.errors == [
                "error: --resume: the chain in \(dir.path) was given a credential (a header, a URL's secret, a password or a token), which a run never records; give the sweep's flags again beside --resume"
            ])
    }
}

extension ChainSweepCommandTests {
    /// `auto` knobs get their sizes from their layer and the cores before anything runs: on 2
    /// cores the workers (after `--workers`) 1…5, the threads the powers of two up to 16; the
    /// dry run lists them.
    @Test func autoKnobsAreSizedForTheCores() throws {
        let result = try EndToEndTests.run([
            "sweep", "--server",
            "\(EndToEndTests.binary.path) serve --threads {threads} --workers {workers} --port {port} --quiet",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=auto", "--sizes", "threads=auto", "--cores", "2",
            "--dry-run",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "dry run: a chain of 25 cells (workers=1,2,3,4,5 threads=1,2,4,8,16), the search measures at most 13 of the 25 it may run; nothing measured\n"
            ), "\(result.stdout)")
    }
}
