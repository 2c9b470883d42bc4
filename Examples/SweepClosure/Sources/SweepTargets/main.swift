import Foundation
import PoolSize

// Pools outside this program, sized through the library as `poolsize sweep` sizes them:
//   1. the thread pool inside a server, started at each size (here `poolsize serve`, whose
//      requests take 200 µs of CPU and 5 ms of waiting), loaded over HTTP;
//   2. a connection pool against PostgreSQL, each pool thread holding one connection and
//      running the transaction;
//   3. a chain of two pools in one server, sized together: `poolsize serve`'s event loops and
//      the worker threads they hand each request to (500 µs of CPU, 2 ms of waiting).
// Usage: SweepTargets SERVER_PROGRAM POSTGRES_URL
//   SERVER_PROGRAM  the poolsize executable whose `serve` is the server
//   POSTGRES_URL    a libpq connection URL (PGPASSWORD and ~/.pgpass apply)
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: SweepTargets SERVER_PROGRAM POSTGRES_URL\n".utf8))
    exit(64)
}
let sizes = ProcessInfo.processInfo.environment["SWEEP_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } }

func report(_ title: String, _ result: SweepResult) {
    print("\(title): W/C at low load \(String(format: "%.1f", result.lowLoad.waitCPURatio))")
    for summary in result.summaries {
        print("  \(summary.poolSize): \(Int(summary.throughput.mean.rounded())) tasks/s")
    }
    do {
        print("\(title): recommended queue count: \(try result.queueCount)")
    } catch {
        print("\(title): \(error)")
    }
}

do {
    let server = Sweep.Target.server(
        "\(arguments[1]) serve --threads {size} --port {port} --cpu 200us --delay 5ms --quiet",
        url: "http://127.0.0.1:{port}/")
    var configuration = Sweep.Configuration(
        name: "serve", sizes: .explicit(sizes ?? [1, 2, 4, 8, 16]), repetitions: 1, trialLength: .milliseconds(500))
    report("server", try Sweep(configuration, target: server).run())

    // A pool of threads, as a JDBC or psycopg pool is: each holds its connection while the
    // transaction's 5 ms of server-side waiting pass.
    configuration.name = "postgres"
    configuration.pool = .threadPool
    let database = Sweep.Target.postgres(arguments[2], sql: "SELECT pg_sleep(0.005);", threadPerConnection: true)
    report("postgres", try Sweep(configuration, target: database).run())

    // A knob per {name}, written as `poolsize sweep --sizes` writes it.
    let chain = Sweep.Target.chain(
        "\(arguments[1]) serve --threads {loops} --workers {workers} --port {port} --cpu 500us --delay 2ms --quiet",
        url: "http://127.0.0.1:{port}/", knobs: ["loops=1,2", "workers=1,2,4"])
    configuration.name = "chain"
    let chained = try Sweep(configuration, target: chain).run()
    let sizes = (chained.recommendedSizes ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    print("chain: recommended sizes: \(sizes.joined(separator: " "))")
    for line in (chained.chainSummary ?? "").split(separator: "\n") where line.hasPrefix("binding layer: ") {
        print("chain: \(line)")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
