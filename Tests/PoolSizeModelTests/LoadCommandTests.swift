import PoolSizeModel
import Testing

/// `load`'s command template: the argument vector a trial runs (golden argv), and one exact
/// line for each template that cannot run.
@Suite struct LoadCommandTests {
    @Test(arguments: [
        (
            "pgbench -c {size} -j 1 -T 10 -S -h 127.0.0.1 -p {port} bench",
            ["pgbench", "-c", "12", "-j", "1", "-T", "10", "-S", "-h", "127.0.0.1", "-p", "41234", "bench"]
        ),
        (
            "wrk -t2 -c{size} -d10s --latency 'http://127.0.0.1:{port}/a b'",
            ["wrk", "-t2", "-c12", "-d10s", "--latency", "http://127.0.0.1:41234/a b"]
        ),
        // {{ is a literal brace, in the program's name too.
        ("./a{{b {size} '{{size}'", ["./a{b", "12", "{size}"]),
    ])
    func placeholdersAreFilledInsideTheirWords(line: String, argv: [String]) throws {
        let command = try LoadCommand(line, requiresSize: true)
        #expect(command.arguments(size: 12, port: 41_234) == argv)
        #expect(command.program == argv[0])
        #expect(command.usesSize)
        #expect(command.usesPort == line.contains("{port}"))
    }

    /// An open-loop trial's rate goes to `{rate}` in requests a second: whole when it is one,
    /// else with up to three decimals and no trailing zeros, never an exponent.
    @Test func theRateIsFilledInAsANumberOfRequestsASecond() throws {
        let command = try LoadCommand(
            "k6 run -e RATE={rate} -e URL=http://127.0.0.1:{port}/ Examples/load/k6-rate.js", requiresSize: false)
        #expect(command.usesRate && command.usesPort && !command.usesSize)
        #expect(
            command.arguments(size: 4, port: 41_234, ratePerSecond: 400)
                == ["k6", "run", "-e", "RATE=400", "-e", "URL=http://127.0.0.1:41234/", "Examples/load/k6-rate.js"])
        let texts = [400, 12.5, 1.0 / 3, 2.0 / 3, 0.05, 1e7, 800.0 / 60].map(LoadCommand.rateText)
        #expect(texts == ["400", "12.5", "0.333", "0.667", "0.05", "10000000", "13.333"])
    }

    /// Beside a server started at each size, the tool's load may stay the same.
    @Test func besideAServerTheSizeMayBeMissing() throws {
        let command = try LoadCommand("wrk -c 64 -d 10s http://127.0.0.1:8080/", requiresSize: false)
        #expect(!command.usesSize && !command.usesPort)
        #expect(command.arguments(size: 3, port: nil) == ["wrk", "-c", "64", "-d", "10s", "http://127.0.0.1:8080/"])
        #expect(command.display == "wrk -c 64 -d 10s http://127.0.0.1:8080/")
    }

    @Test(arguments: [
        (
            "wrk -c 64 http://127.0.0.1:8080/",
            "error: `load`: has no {size}, and no `server` is started at each size, so every size would run the same load; add {size} where the tool takes its concurrency (pgbench -c {size}, say), or give `server`, the server whose pool is sized"
        ),
        (
            "  ",
            "error: `load`: is empty; give the command that runs the load tool, e.g. `load` 'pgbench -c {size} -T 10 -S bench'"
        ),
        (
            "pgbench -c {sise}",
            "error: `load`: {sise} is not a placeholder; the placeholders are {size}, {port} and {rate} (write {{ for a literal {)"
        ),
        (
            "bench-{size} run",
            "error: `load`: names its program with a placeholder ('bench-{size}'); write the program as is and the placeholders in its arguments"
        ),
        ("wrk 'http://x/{size}", "error: `load`: has an unterminated ' quote; close it"),
    ])
    func unusableCommandIsOneLine(line: String, message: String) {
        #expect(throws: PoolSizeError.self) { try LoadCommand(line, requiresSize: true) }
        do {
            _ = try LoadCommand(line, requiresSize: true)
        } catch {
            #expect(error.description == message)
        }
    }
}
