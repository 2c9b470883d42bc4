import ArgumentParser
import Foundation
import PoolSizeHTTP
import PoolSizeModel

/// `poolsize bench-driver`: parse → validate → run → print. Loads a URL with the event-driven
/// HTTP driver (`HTTPLoadDriver`) at each connection count, so scripts can set it beside wrk
/// (scripts/benchmark-driver.sh).
struct BenchDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-driver",
        abstract: "Measure the HTTP load driver: one thread keeping M requests in flight against a URL.",
        discussion:
            "For each connection count M, one thread keeps exactly M GET requests in flight through libcurl's multi interface (each finished request at once starts the next on its kept-alive connection) for --warmup-ms, then measures for --duration-ms: requests answered with a 2xx status a second (other statuses and transport errors are failures, never throughput), latency percentiles, and the driver thread's own CPU per request. A benchmark: run it on an otherwise idle machine."
    )

    @Option(help: "The URL to load, e.g. http://127.0.0.1:8080/.")
    var url: String

    @Option(help: "Requests in flight at once, comma-separated (1 to 10000 each).")
    var connections: String = "1,4,16,64"

    @Option(name: .customLong("duration-ms"), help: "Length of each measured window in milliseconds (50 to 600000).")
    var durationMilliseconds: Int = 2_000

    @Option(
        name: .customLong("warmup-ms"), help: "Load before each window, not measured, in milliseconds (0 to 60000).")
    var warmupMilliseconds: Int = 500

    @Option(help: "table or json.")
    var format: OutputFormat = .table

    func run() throws {
        let (target, counts) = try plan()
        var results: [HTTPLoadResult] = []
        for count in counts {
            let driver = try HTTPLoadDriver(target: target, connections: count)
            results.append(
                try driver.run(
                    warmupNanoseconds: UInt64(warmupMilliseconds) * 1_000_000,
                    durationNanoseconds: UInt64(durationMilliseconds) * 1_000_000))
        }
        print(format == .json ? Self.json(results) : Self.table(results), terminator: "")
    }

    /// The validated URL and connection counts; every flag is checked before anything runs.
    func plan() throws(PoolSizeError) -> (HTTPTarget, [Int]) {
        try (50...600_000).check(durationMilliseconds, flag: "--duration-ms")
        try (0...60_000).check(warmupMilliseconds, flag: "--warmup-ms")
        var counts: [Int] = []
        for field in connections.split(separator: ",", omittingEmptySubsequences: false) {
            let text = field.trimmingCharacters(in: .whitespaces)
            guard let value = Int(text), (1...HTTPLoadDriver.connectionLimit).contains(value) else {
                throw .invalidOption(
                    flag: "--connections",
                    message: "'\(text)' is not a count of 1 to \(HTTPLoadDriver.connectionLimit); pass e.g. 1,4,16,64")
            }
            counts.append(value)
        }
        do {
            return (try HTTPTarget(url: url), counts)
        } catch let PoolSizeError.invalidParameter(.httpURL, message) {
            // This command's flag for the URL is --url, not the sweep's.
            throw .invalidOption(
                flag: "--url",
                message: message.replacingOccurrences(of: PoolSizeError.Parameter.httpURL.mention, with: "--url"))
        }
    }
}
