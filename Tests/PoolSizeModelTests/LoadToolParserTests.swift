import Foundation
import PoolSizeModel
import Testing

/// `parse`: the wrk and pgbench presets on what the real tools printed (Tests/Fixtures/loadtool,
/// captured on this project's machine; its README has the commands), every expected number
/// read off those files by hand; expressions of the user's own; and one exact line for each
/// `parse` that cannot be used.
@Suite struct LoadToolParserTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/loadtool")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Equal within rounding of the unit conversion (2.34 ms is no exact binary fraction).
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
    }

    static func same(_ a: LoadToolFigures, _ b: LoadToolFigures) -> Bool {
        let percentiles: [KeyPath<LatencyPercentiles, Double>] = [\.p50, \.p90, \.p99, \.p999, \.max]
        let latency =
            a.latency == nil && b.latency == nil
            || a.latency != nil && b.latency != nil
                && percentiles.allSatisfy { same(a.latency?[keyPath: $0], b.latency?[keyPath: $0]) }
        return latency && same(a.throughputPerSecond, b.throughputPerSecond)
            && same(a.meanLatencyMicroseconds, b.meanLatencyMicroseconds) && a.errors == b.errors
            && same(a.requests, b.requests) && same(a.durationSeconds, b.durationSeconds)
            && same(a.dropped, b.dropped) && a.concurrency == b.concurrency
    }

    static let wrkCases: [(String, LoadToolFigures)] = [
        // No --latency: wrk's thread statistics give the mean and the max only.
        (
            "wrk.txt",
            LoadToolFigures(
                throughputPerSecond: 1709.00, latency: LatencyPercentiles(max: 5_700),
                meanLatencyMicroseconds: 2_340, errors: 0, requests: 3419, durationSeconds: 2.00)
        ),
        (
            "wrk-latency.txt",
            LoadToolFigures(
                throughputPerSecond: 1724.70,
                latency: LatencyPercentiles(p50: 2_300, p90: 2_380, p99: 2_640, max: 5_560),
                meanLatencyMicroseconds: 2_320, errors: 0, requests: 3454, durationSeconds: 2.00)
        ),
        // Every answer a 503: all of them errors, and all of them in wrk's Requests/sec.
        (
            "wrk-non2xx.txt",
            LoadToolFigures(
                throughputPerSecond: 1723.70,
                latency: LatencyPercentiles(p50: 2_310, p90: 2_380, p99: 2_670, max: 5_290),
                meanLatencyMicroseconds: 2_320, errors: 3621, requests: 3621, durationSeconds: 2.10)
        ),
        // 5 timeouts plus 52 non-2xx answers.
        (
            "wrk-timeouts-non2xx.txt",
            LoadToolFigures(
                throughputPerSecond: 12.97,
                latency: LatencyPercentiles(p50: 365_100, p90: 948_240, p99: 951_070, max: 951_070),
                meanLatencyMicroseconds: 467_360, errors: 57, requests: 52, durationSeconds: 4.01)
        ),
        // Read 22 163 plus write 372; nothing answered, so 0 requests a second and latencies of 0.
        (
            "wrk-socket-errors.txt",
            LoadToolFigures(
                throughputPerSecond: 0, latency: LatencyPercentiles(), meanLatencyMicroseconds: 0, errors: 22_535,
                requests: 0, durationSeconds: 2.00)
        ),
        // Read 18 403 plus write 354, beside answered requests.
        (
            "wrk-socket-errors-latency.txt",
            LoadToolFigures(
                throughputPerSecond: 9197.96, latency: LatencyPercentiles(p50: 58, p90: 92, p99: 145, max: 4_140),
                meanLatencyMicroseconds: 66.44, errors: 18_757, requests: 18_398, durationSeconds: 2.00)
        ),
    ]

    @Test(arguments: wrkCases)
    func wrkPrintedFigures(file: String, expected: LoadToolFigures) throws {
        let figures = try LoadToolParser([" wrk"]).parse(standardOutput: try Self.fixture(file))
        #expect(Self.same(figures, expected), "\(figures)")
    }

    static let pgbenchCases: [(String, LoadToolFigures)] = [
        (
            "pgbench-select-only.txt",
            LoadToolFigures(
                throughputPerSecond: 60_256.923549, meanLatencyMicroseconds: 66, errors: 0, requests: 180_454,
                durationSeconds: 3)
        ),
        // -t instead of -T: no duration line, and `1000/1000` processed.
        (
            "pgbench-select-only-transactions.txt",
            LoadToolFigures(throughputPerSecond: 20_371.577575, meanLatencyMicroseconds: 98, errors: 0, requests: 1000)
        ),
        (
            "pgbench-serialization-failures.txt",
            LoadToolFigures(
                throughputPerSecond: 3022.633254, meanLatencyMicroseconds: 460, errors: 16_999, requests: 9069,
                durationSeconds: 3)
        ),
    ]

    @Test(arguments: pgbenchCases)
    func pgbenchPrintedFigures(file: String, expected: LoadToolFigures) throws {
        let figures = try LoadToolParser(preset: .pgbench).parse(standardOutput: try Self.fixture(file))
        #expect(Self.same(figures, expected), "\(figures)")
        #expect(figures.latency == nil)
    }

    /// Locust 2.47's master with two workers, headless, on stderr (its stdout empty): the
    /// Aggregated rows of the stats and the percentile tables, latencies in whole ms. The
    /// percentile table's 100% (68, 44) is not the max: the stats row's Max (67, 43) is.
    static let locustCases: [(String, LoadToolFigures)] = [
        (
            "locust-master-2-workers.txt",
            LoadToolFigures(
                throughputPerSecond: 702.61,
                latency: LatencyPercentiles(p50: 21_000, p90: 23_000, p99: 34_000, p999: 60_000, max: 67_000),
                meanLatencyMicroseconds: 21_000, errors: 0, requests: 2153)
        ),
        // Every request refused: all 22 259 failed, and Locust's req/s counts them.
        (
            "locust-refused.txt",
            LoadToolFigures(
                throughputPerSecond: 7307.21,
                latency: LatencyPercentiles(p50: 1000, p90: 2000, p99: 4000, p999: 27_000, max: 43_000),
                meanLatencyMicroseconds: 1000, errors: 22_259, requests: 22_259)
        ),
    ]

    @Test(arguments: locustCases)
    func locustPrintedFigures(file: String, expected: LoadToolFigures) throws {
        let figures = try LoadToolParser(["locust"]).parse(standardOutput: "", standardError: try Self.fixture(file))
        #expect(Self.same(figures, expected), "\(figures)")
    }

    /// Locust saying it was the limit: a master whose worker passed 90% of a core, and one
    /// process alone past it (its warning, and its closing one); the figures are read as ever.
    /// Locust's other runs, and the other tools, say nothing of the kind.
    @Test func locustSaysWhenItWasTheLimit() throws {
        let parser = try LoadToolParser(["locust"])
        let worker = try parser.parse(standardOutput: "", standardError: try Self.fixture("locust-worker-cpu.txt"))
        #expect(
            worker.saidBound
                == "Worker vm_12f5d526f48e45d2aec91d706df9ce50 (index 0) exceeded cpu threshold (will only log this once per worker)"
        )
        #expect(worker.requests == 273_375 && worker.errors == 0)
        let local = try parser.parse(standardOutput: try Self.fixture("locust-local-cpu.txt"))
        #expect(local.saidBound?.hasPrefix("CPU usage above 90%! This may constrain your throughput") == true)
        #expect(local.requests == 269_879)
        for file in ["locust-master-2-workers.txt", "locust-refused.txt"] {
            #expect(try parser.parse(standardOutput: "", standardError: try Self.fixture(file)).saidBound == nil)
        }
        let wrk = try LoadToolParser(["wrk", "locust"]).parse(standardOutput: try Self.fixture("wrk-latency.txt"))
        #expect(wrk.saidBound == nil)
        #expect(try LoadToolParser(["k6"]).saturation.isEmpty)
    }

    /// k6 1.1.0's end-of-test summary, stdout and stderr together: the default, with p(99) and
    /// p(99.9) asked for, every answer a 503, every connection refused (latencies of 0s), the
    /// legacy summary mode, and a run past a minute (`running (1m01.0s)`). Failed requests are in
    /// `http_reqs`' count and rate, as k6 counts them.
    static let k6Cases: [(String, LoadToolFigures)] = [
        (
            "k6-closed.txt",
            LoadToolFigures(
                throughputPerSecond: 773.876784, latency: LatencyPercentiles(p50: 20_360, p90: 21_510, max: 27_540),
                meanLatencyMicroseconds: 20_490, errors: 0, requests: 2338, durationSeconds: 3.0, concurrency: 16)
        ),
        (
            "k6-trend-stats.txt",
            LoadToolFigures(
                throughputPerSecond: 775.575763,
                latency: LatencyPercentiles(p50: 20_290, p90: 21_470, p99: 23_970, p999: 31_110, max: 32_950),
                meanLatencyMicroseconds: 20_470, errors: 0, requests: 2341, concurrency: 16)
        ),
        (
            "k6-non2xx.txt",
            LoadToolFigures(
                throughputPerSecond: 373.164229, latency: LatencyPercentiles(p50: 10_420, p90: 11_300, max: 14_160),
                meanLatencyMicroseconds: 10_590, errors: 750, requests: 750, concurrency: 4)
        ),
        (
            "k6-refused.txt",
            LoadToolFigures(
                throughputPerSecond: 3494.788688, latency: LatencyPercentiles(), meanLatencyMicroseconds: 0, errors: 6,
                requests: 6)
        ),
        (
            "k6-legacy.txt",
            LoadToolFigures(
                throughputPerSecond: 776.745867, latency: LatencyPercentiles(p50: 20_310, p90: 21_400, max: 27_750),
                meanLatencyMicroseconds: 20_420, errors: 0, requests: 1567, concurrency: 16)
        ),
        (
            "k6-legacy-non2xx.txt",
            LoadToolFigures(
                throughputPerSecond: 378.292589, latency: LatencyPercentiles(p50: 10_330, p90: 11_040, max: 13_280),
                meanLatencyMicroseconds: 10_470, errors: 380, requests: 380, concurrency: 4)
        ),
        (
            "k6-minute.txt",
            LoadToolFigures(
                throughputPerSecond: 9.954349, latency: LatencyPercentiles(p50: 200_720, p90: 200_980, max: 204_210),
                meanLatencyMicroseconds: 200_780, errors: 0, requests: 608, durationSeconds: 61.1, concurrency: 2)
        ),
        // An open loop (Examples/load/k6-rate.js, `-e RATE=400 -e VUS=40`): a server that kept up,
        // so k6 dropped nothing and printed no dropped_iterations; one of 3 workers that did not,
        // its 40 users all busy, with and without the legacy summary.
        (
            "k6-rate-kept-up.txt",
            LoadToolFigures(
                throughputPerSecond: 398.712984,
                latency: LatencyPercentiles(p50: 10_570, p90: 11_410, p99: 11_720, max: 13_810),
                meanLatencyMicroseconds: 10_760, errors: 0, requests: 1200, concurrency: 40)
        ),
        (
            "k6-rate-dropped.txt",
            LoadToolFigures(
                throughputPerSecond: 289.773083,
                latency: LatencyPercentiles(p50: 135_050, p90: 137_660, p99: 140_020, max: 140_740),
                meanLatencyMicroseconds: 126_520, errors: 0, requests: 908, durationSeconds: 3.1, dropped: 293,
                concurrency: 40)
        ),
        (
            "k6-rate-dropped-legacy.txt",
            LoadToolFigures(
                throughputPerSecond: 291.829722, latency: LatencyPercentiles(p50: 133_980, p90: 137_060, max: 141_900),
                meanLatencyMicroseconds: 125_320, errors: 0, requests: 914, dropped: 287, concurrency: 40)
        ),
    ]

    @Test(arguments: k6Cases)
    func k6PrintedFigures(file: String, expected: LoadToolFigures) throws {
        let figures = try LoadToolParser(["k6"]).parse(standardOutput: try Self.fixture(file))
        #expect(Self.same(figures, expected), "\(figures)")
        #expect(figures.throughputsPrinted == 1)
    }

    /// Go's durations of several parts, as k6 prints a run or a request past a minute; a text
    /// that only starts like one is none.
    @Test(
        arguments: [
            ("1m2.5s", 62.5), ("1m01.0s", 61.0), ("1h0m3s", 3603.0), ("2m0.000001s", 120.000001), ("1m2.5", nil),
            ("1x2s", nil), ("m2s", nil), ("1m 2s", nil),
        ] as [(String, Double?)])
    func goDurations(text: String, seconds: Double?) {
        #expect(Self.same(LoadToolGroup.duration.value(text[...]), seconds))
        #expect(Self.same(LoadToolGroup.p99.value(text[...]), seconds.map { $0 * 1e6 }))
    }

    /// A tool that failed printed no throughput: wrk that could not connect, pgbench whose
    /// clients aborted; and one preset does not read the other tool.
    @Test(arguments: [
        ("wrk-refused.txt", LoadToolParser.Preset.wrk), ("pgbench-aborted.txt", .pgbench),
        ("wrk-latency.txt", .pgbench), ("pgbench-select-only.txt", .wrk),
    ])
    func noThroughputPrinted(file: String, preset: LoadToolParser.Preset) throws {
        let text = try Self.fixture(file)
        #expect(throws: LoadToolParser.Unreadable.noThroughput) {
            try LoadToolParser(preset: preset).parse(standardOutput: text)
        }
        #expect(LoadToolParser.Unreadable.noThroughput.description == "printed no throughput")
    }

    /// The presets' expressions pass the checks a user's do: `init(preset:)` skips them.
    @Test(arguments: LoadToolParser.Preset.allCases)
    func presetsAreValid(preset: LoadToolParser.Preset) throws {
        let parser = try LoadToolParser([preset.rawValue])
        #expect(parser == LoadToolParser(preset: preset))
        #expect(parser.patterns == preset.patterns)
    }

    /// k6's summary through expressions of the user's own: a rate with its unit, latencies in
    /// ms and µs, a count of failed requests.
    @Test func userExpressionsReadK6() throws {
        let summary = """
                 http_req_duration..............: avg=1.52ms  min=212µs med=1.2ms max=41.07ms p(90)=2.9ms p(95)=3.87ms
                 http_req_failed................: 0.31% ✓ 38 ✗ 12162
                 http_reqs......................: 12200  406.333042/s
            """
        let parser = try LoadToolParser([
            #"http_reqs\.*: (?<requests>\d+)\s+(?<throughput>\S+)"#,
            #"http_req_duration\.*: avg=(?<mean>\S+) .* med=(?<p50>\S+) max=(?<max>\S+) p\(90\)=(?<p90>\S+)"#,
            #"http_req_failed\.*: \S+ ✓ (?<errors>\d+)"#,
        ])
        let figures = try parser.parse(standardOutput: summary)
        #expect(
            Self.same(
                figures,
                LoadToolFigures(
                    throughputPerSecond: 406.333042, latency: LatencyPercentiles(p50: 1_200, p90: 2_900, max: 41_070),
                    meanLatencyMicroseconds: 1_520, errors: 38, requests: 12_200)))
    }

    /// Units: a bare latency is milliseconds, a bare duration seconds; wrk's `m` is minutes;
    /// both spellings of µ; spaces between number and unit; a rate per minute.
    @Test(arguments: [
        ("lat 12", "p99", 12_000.0), ("lat 450us", "p99", 450), ("lat 450µs", "p99", 450), ("lat 450μs", "p99", 450),
        ("lat 1.5 s", "p99", 1_500_000), ("lat 1.02m", "p99", 61_200_000), ("lat 800ns", "p99", 0.8),
        ("lat 2min", "p99", 120_000_000), ("lat 10", "duration", 10), ("lat 250ms", "duration", 0.25),
        ("lat 1h", "duration", 3600),
    ])
    func unitsAreRead(line: String, group: String, expected: Double) throws {
        let parser = try LoadToolParser(["ops (?<throughput>\\S+)", "lat (?<\(group)>.+)"])
        let figures = try parser.parse(standardOutput: "ops 5\n\(line)\n")
        let value = group == "p99" ? figures.latency?.p99 : figures.durationSeconds
        #expect(Self.same(value, expected))
        #expect(Self.same(try parser.parse(standardOutput: "ops 74070/min\n").throughputPerSecond, 1234.5))
    }

    /// A capture that is no figure makes the output unreadable, saying what was captured.
    @Test(arguments: [
        (
            "rate (?<throughput>\\S+)", "rate fast",
            "printed 'fast' as its throughput, which is not a rate (1234.5, 1234.5/s, 74070/min)"
        ),
        (
            "rate (?<throughput>\\S+)", "rate -5",
            "printed '-5' as its throughput, which is not a rate (1234.5, 1234.5/s, 74070/min)"
        ),
        (
            "rate (?<throughput>\\S+)", "rate 5/fortnight",
            "printed '5/fortnight' as its throughput, which is not a rate (1234.5, 1234.5/s, 74070/min)"
        ),
        (
            "rate (?<throughput>\\S+) p99 (?<p99>\\S+)", "rate 5 p99 3parsecs",
            "printed '3parsecs' as its p99, which is not a latency (450us, 1.23ms, 2.1s)"
        ),
        (
            "rate (?<throughput>\\S+) err (?<errors>\\S+)", "rate 5 err 1.5",
            "printed '1.5' as its errors, which is not a whole number"
        ),
        (
            "rate (?<throughput>\\S+) in (?<duration>\\S+)", "rate 5 in inf",
            "printed 'inf' as its duration, which is not a duration (10 s, 10.01s, 1.5m)"
        ),
        (
            "Requests/sec:\\s*(?<throughput>\\S+)", "Requests/sec: 99999999999999999999999",
            "printed '99999999999999999999999' as its throughput, beyond any measurement (2^53 or more)"
        ),
        (
            "rate (?<throughput>\\S+)", "rate 1e19",
            "printed '1e19' as its throughput, beyond any measurement (2^53 or more)"
        ),
        (
            "rate (?<throughput>\\S+) p99 (?<p99>\\S+)", "rate 5 p99 1e20s",
            "printed '1e20s' as its p99, beyond any measurement (2^53 or more)"
        ),
        (
            "rate (?<throughput>\\S+) n (?<requests>\\S+)", "rate 5 n 1e308",
            "printed '1e308' as its requests, beyond any measurement (2^53 or more)"
        ),
    ])
    func aCaptureThatIsNoFigure(pattern: String, output: String, reason: String) throws {
        let parser = try LoadToolParser([pattern])
        #expect(throws: LoadToolParser.Unreadable.self) { try parser.parse(standardOutput: output) }
        do {
            _ = try parser.parse(standardOutput: output)
        } catch {
            #expect(error.description == reason)
        }
    }

    /// A figure captured more than once is its latest capture: the summary after the progress
    /// lines. `errors` adds the expressions' latest captures, not every line's.
    @Test func theLatestCaptureCountsAndErrorsAddAcrossExpressions() throws {
        let parser = try LoadToolParser([
            "(?<throughput>[\\d.]+) tps", "(?<errors>\\d+) failed", "timeouts: (?<errors>\\d+)",
        ])
        let output = """
            progress: 100 tps, 1 failed
            progress: 300 tps, 4 failed
            total: 250.5 tps, 7 failed
            timeouts: 2
            """
        let figures = try parser.parse(standardOutput: output)
        #expect(figures.throughputPerSecond == 250.5)
        #expect(figures.errors == 9)
        #expect(figures.latency == nil && figures.meanLatencyMicroseconds == nil && figures.requests == nil)
    }

    /// A preset prints its throughput once: two different ones (a wrapper that ran wrk twice)
    /// are counted, the last taken; the same one twice, or a user's expression over progress
    /// lines, is no second throughput.
    @Test func aPresetsSecondThroughputIsCounted() throws {
        let wrk = LoadToolParser(preset: .wrk)
        let twice = try wrk.parse(standardOutput: "Requests/sec: 1200.5\nRequests/sec:   1500.25\n")
        #expect(twice.throughputPerSecond == 1500.25)
        #expect(twice.throughputsPrinted == 2)
        #expect(try wrk.parse(standardOutput: "Requests/sec: 900\nRequests/sec: 900\n").throughputsPrinted == 1)
        let user = try LoadToolParser(["(?<throughput>[\\d.]+) tps"])
        #expect(try user.parse(standardOutput: "100 tps\n300 tps\n250.5 tps\n").throughputsPrinted == 1)
    }

    /// stdout first: a figure it holds is taken from it, one it lacks from stderr (pgbench's
    /// progress lines, on stderr, do not outvote its summary on stdout).
    @Test func stdoutBeforeStderr() throws {
        let parser = try LoadToolParser(["tps (?<throughput>\\d+)", "p99 (?<p99>\\S+)", "errors (?<errors>\\d+)"])
        let figures = try parser.parse(
            standardOutput: "tps 100\nerrors 1\n", standardError: "tps 900\np99 3ms\nerrors 5\n")
        #expect(figures.throughputPerSecond == 100)
        #expect(figures.latency == LatencyPercentiles(p99: 3_000))
        #expect(figures.errors == 1)
        #expect(try parser.parse(standardOutput: "", standardError: "tps 900\n").throughputPerSecond == 900)
    }

    /// `^` and `$` hold at each line's ends; a group that matched nothing, or matched empty
    /// text, is no capture.
    @Test func anchorsAreLinesAndEmptyCapturesAreNone() throws {
        let parser = try LoadToolParser(["^rate: (?<throughput>\\d+)$", "^p99: (?<p99>\\d*)(?<p50>x)?"])
        let figures = try parser.parse(standardOutput: "x rate: 1\nrate: 42\np99: \n")
        #expect(figures.throughputPerSecond == 42)
        #expect(figures.latency == nil)
    }

    /// A preset and the user's own expressions make one parser; a preset or an expression
    /// given twice is searched once (its errors not counted twice).
    @Test func presetsAndExpressionsMix() throws {
        let parser = try LoadToolParser(["wrk", "wrk", "^Dropped: (?<errors>\\d+)", "^Dropped: (?<errors>\\d+)"])
        #expect(parser.patterns == LoadToolParser.Preset.wrk.patterns + ["^Dropped: (?<errors>\\d+)"])
        let output = try Self.fixture("wrk-non2xx.txt") + "Dropped: 9\n"
        #expect(try parser.parse(standardOutput: output).errors == 3621 + 9)
    }

    /// One line for each `parse` that cannot be used, naming the setting.
    @Test(arguments: [
        (
            [],
            "error: `parse`: is empty; name a preset (wrk, pgbench, locust, k6) or give regular expressions with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"
        ),
        (
            ["  "],
            "error: `parse`: has an empty expression; name a preset (wrk, pgbench, locust, k6) or give regular expressions with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"
        ),
        (
            ["tps = (?<throughput>[\\d.]+"],
            "error: `parse`: 'tps = (?<throughput>[\\d.]+' is not a regular expression: expected ')'"
        ),
        (
            ["tps = (?<throughput>\\d+) p95=(?<p95>\\S+)"],
            "error: `parse`: 'tps = (?<throughput>\\d+) p95=(?<p95>\\S+)' has a group named 'p95', which is no figure; the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency"
        ),
        // Python's and the quoted spelling of a name are names too.
        (
            ["(?<throughput>\\d+) (?P<tps>\\d+)"],
            "error: `parse`: '(?<throughput>\\d+) (?P<tps>\\d+)' has a group named 'tps', which is no figure; the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency"
        ),
        (
            ["(?'rate'\\d+)"],
            "error: `parse`: '(?'rate'\\d+)' has a group named 'rate', which is no figure; the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency"
        ),
        // A tool's name that is no preset is not read as an expression matching the name.
        (
            ["ab"],
            "error: `parse`: 'ab' is no preset; the presets are wrk, pgbench, locust, k6, and for another tool give a regular expression with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"
        ),
        (
            ["wrk", " vegeta "],
            "error: `parse`: 'vegeta' is no preset; the presets are wrk, pgbench, locust, k6, and for another tool give a regular expression with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"
        ),
        (
            ["Requests/sec: (\\d+)"],
            "error: `parse`: 'Requests/sec: (\\d+)' captures no figure; name its group, e.g. (?<throughput>[\\d.]+) (the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency)"
        ),
        (
            ["99%\\s+(?<p99>\\S+)"],
            "error: `parse`: captures no throughput; add an expression with a group named throughput, e.g. 'Requests/sec:\\s*(?<throughput>[\\d.]+)', or name a preset (wrk, pgbench, locust, k6)"
        ),
        // A name that only looks like a group (escaped, in a class, quoted) is none.
        (
            ["\\(?<fake>x\\) [(?<also>] \\Q(?<quoted>\\E"],
            "error: `parse`: '\\(?<fake>x\\) [(?<also>] \\Q(?<quoted>\\E' captures no figure; name its group, e.g. (?<throughput>[\\d.]+) (the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency)"
        ),
        // A long expression is cut; one with a control character is escaped.
        (
            ["(?<bogus>x)" + String(repeating: "y", count: 60)],
            "error: `parse`: '(?<bogus>x)" + String(repeating: "y", count: 49)
                + "…' has a group named 'bogus', which is no figure; the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency"
        ),
        (
            ["(?<bogus>\u{1b}x)"],
            "error: `parse`: '(?<bogus>\\x1bx)' has a group named 'bogus', which is no figure; the groups are throughput, p50, p90, p99, p999, max, mean, errors, requests, duration, dropped, concurrency"
        ),
    ])
    func unusableParseIsOneLine(texts: [String], line: String) {
        #expect(throws: PoolSizeError.self) { try LoadToolParser(texts) }
        do {
            _ = try LoadToolParser(texts)
        } catch {
            #expect(error.description == line)
        }
    }
}
