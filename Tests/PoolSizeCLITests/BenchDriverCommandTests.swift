import Foundation
import PoolSizeHTTP
import PoolSizeModel
import Testing

@testable import PoolSizeCLI

@Suite struct BenchDriverCommandTests {
    @Test func defaultsAreFourConnectionCounts() throws {
        let (target, counts) = try BenchDriverCommand.parse(["--url", "http://127.0.0.1:8080/x"]).plan()
        #expect(target.url == "http://127.0.0.1:8080/x")
        #expect(counts == [1, 4, 16, 64])
        #expect(try BenchDriverCommand.parse(["--url", "http://h/", "--connections", " 2,8"]).plan().1 == [2, 8])
    }

    /// More connections than the process may open files: refused before any is made, naming
    /// the limit, instead of connections failing as if the server refused them.
    @Test func connectionsPastTheDescriptorLimitAreRefused() throws {
        let run = try BinaryRun.run(
            [
                "-c", "ulimit -n 128 || exit 97; exec \"$0\" \"$@\"", EndToEndTests.binary.path, "bench-driver",
                "--url", "http://127.0.0.1:1/", "--connections", "300", "--duration-ms", "50",
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.code == 64)
        #expect(
            run.stderr.split(separator: "\n").map(String.init) == [
                "error: --connections: 300 connections need 364 open files, and this process may open 128 (ulimit -n); pass at most 64, or raise the limit"
            ])
    }

    @Test(arguments: [
        (
            ["bench-driver", "--url", "http://127.0.0.1:1/", "--connections", "4,x"],
            "error: --connections: 'x' is not a count of 1 to 10000; pass e.g. 1,4,16,64"
        ),
        (
            ["bench-driver", "--url", "http://127.0.0.1:1/", "--connections", "0"],
            "error: --connections: '0' is not a count of 1 to 10000; pass e.g. 1,4,16,64"
        ),
        (
            ["bench-driver", "--url", "http://127.0.0.1:1/", "--duration-ms", "10"],
            "error: --duration-ms: must be 50 to 600000, got 10"
        ),
        (
            ["bench-driver", "--url", "http://127.0.0.1:1/", "--warmup-ms", "60001"],
            "error: --warmup-ms: must be 0 to 60000, got 60001"
        ),
        (
            ["bench-driver", "--url", "ftp://127.0.0.1/"],
            "error: --url: must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:8080/, got 'ftp://127.0.0.1/'"
        ),
    ])
    func badOptionsNameTheFlag(arguments: [String], message: String) {
        let (code, errors) = runCLI(arguments)
        #expect(code == 64)
        #expect(errors == [message])
    }

    /// The JSON keys carry their units, a failure is named, and the layout's version is there as
    /// in every JSON poolsize writes (`JSONExport`).
    @Test func jsonHoldsRawNumbers() {
        let result = HTTPLoadResult(
            connections: 4, requests: 100, failures: 2, windowSeconds: 2, throughputPerSecond: 50,
            latency: LatencyPercentiles(p50: 10, p90: 20, p99: 30, p999: 40, max: 50), driverCPUMicroseconds: 1_020,
            firstFailure: "answered 404 Not Found")
        #expect(
            BenchDriverCommand.json([result]) == """
                [
                  {
                    "connections" : 4,
                    "driver_cpu_us" : 1020,
                    "driver_cpu_us_per_request" : 10,
                    "failures" : 2,
                    "first_failure" : "answered 404 Not Found",
                    "latency_us" : {
                      "max" : 50,
                      "p50" : 10,
                      "p90" : 20,
                      "p99" : 30,
                      "p999" : 40
                    },
                    "requests" : 100,
                    "schema_version" : 1,
                    "throughput_per_s" : 50,
                    "window_s" : 2
                  }
                ]

                """)
    }
}
