extension LoadToolParser {
    /// A load tool whose output poolsize reads without patterns from the user.
    package enum Preset: String, CaseIterable, Sendable {
        /// wrk 4 (and wrk2's summary): `Requests/sec`; latency mean and max from the thread
        /// statistics, p50, p90 and p99 (p99.9 from wrk2) with `--latency`; requests and the
        /// window from `N requests in 10.01s`; errors are the non-2xx answers plus every socket
        /// error (connect, read, write, timeout).
        case wrk
        /// pgbench 15 (and the older `excluding connections establishing` line): tps without
        /// the initial connection time, the average latency, the transactions processed, the
        /// failed ones (serialization and deadlock failures) and the `duration`.
        case pgbench
        /// Locust 2 headless (`--headless`, one process or a master with workers, whose master
        /// prints the whole run's figures): the Aggregated row of the final stats table (its
        /// requests, failures, average, max and req/s over the whole run) and of the percentile
        /// table after it (50%, 90%, 99%, 99.9%), every latency in whole milliseconds.
        case locust
        /// k6 1.x's end-of-test summary (any `--summary-mode`): `http_reqs`' count and rate
        /// (failed requests in both, as k6 counts them), `http_req_duration`'s avg, med, max,
        /// p(90), and p(99) and p(99.9) when `--summary-trend-stats` asks for them, the failed
        /// count of `http_req_failed`, and the run's length from the last progress line (none
        /// with `--quiet`); at a rate, `dropped_iterations`' count and `vus_max`'s max (the
        /// users it may run at once). Times are Go's durations: `20.42ms`, `531ns`, `1m2.5s`.
        case k6

        /// Lines by which the tool says it was itself the limit: Locust warns when its own
        /// process (`CPU usage above 90%!`, and at the end `CPU usage was too high`) or a
        /// worker's (`Worker … (index 0) exceeded cpu threshold`, on the master) passed 90% of a
        /// core. Locust reads its CPU every 10 s and its first reading is empty, so a run
        /// shorter than about 20 s never warns. A trial whose tool printed one is
        /// load-generator-bound.
        package var saturationPatterns: [String] {
            switch self {
            case .locust:
                return [
                    #"CPU usage above \d+%"#, #"CPU usage was too high"#,
                    #"Worker \S+ (?:\(index \d+\) )?exceeded cpu threshold"#,
                ]
            case .wrk, .pgbench, .k6: return []
            }
        }

        /// The presets, listed for a message.
        static var listed: String { allCases.map(\.rawValue).joined(separator: ", ") }

        /// The preset's regular expressions.
        package var patterns: [String] {
            // Numbers and units as the tools print them: wrk `2.32ms`, `450.00us`, `1.02m`.
            let number = #"\d+(?:\.\d+)?"#
            let time = number + "[a-zµ]+"
            switch self {
            case .k6:
                // The summary's lines: `http_reqs......: 2358   775.980238/s`, `http_req_failed..: 0.00%
                // 0 out of 2358`, `http_req_duration..: avg=40.84ms min=12.08ms med=40.79ms …`; the
                // line `{ expected_response:true }` below the duration is a subset, not matched.
                let go = #"(?:\d+(?:\.\d+)?(?:ms|µs|μs|us|ns|h|m|s))+"#
                let duration = #"^\s*http_req_duration\.*:.*\b"#
                return [
                    #"^\s*http_reqs\.*:\s*(?<requests>\d+)\s+(?<throughput>"# + number + "/s)",
                    #"^\s*http_req_duration\.*:\s*avg=(?<mean>"# + go + ")",
                    duration + "med=(?<p50>" + go + ")",
                    duration + #"p\(90\)=(?<p90>"# + go + ")",
                    duration + #"p\(99\)=(?<p99>"# + go + ")",
                    duration + #"p\(99\.9\)=(?<p999>"# + go + ")",
                    duration + "max=(?<max>" + go + ")",
                    #"^\s*http_req_failed\.*:\s*"# + number + #"%\s+(?<errors>\d+) out of \d+"#,
                    #"^running \((?<duration>"# + go + #")\), 0+/\d+ VUs"#,
                    #"^\s*dropped_iterations\.*:\s*(?<dropped>\d+)\s"#,
                    #"^\s*vus_max\.*:\s*\d+\s+min=\d+\s+max=(?<concurrency>\d+)"#,
                ]
            case .wrk:
                return [
                    #"^Requests/sec:\s*(?<throughput>"# + number + ")",
                    #"^\s*Latency\s+(?<mean>"# + time + #")\s+\S+\s+(?<max>"# + time + ")",
                    #"^\s*50(?:\.0+)?%\s+(?<p50>"# + time + ")",
                    #"^\s*90(?:\.0+)?%\s+(?<p90>"# + time + ")",
                    #"^\s*99(?:\.0+)?%\s+(?<p99>"# + time + ")",
                    #"^\s*99\.90*%\s+(?<p999>"# + time + ")",
                    #"^\s*(?<requests>\d+) requests in (?<duration>"# + time + ")",
                    #"^\s*Non-2xx or 3xx responses:\s*(?<errors>\d+)"#,
                    #"^\s*Socket errors: connect (?<errors>\d+)"#,
                    #"^\s*Socket errors: connect \d+, read (?<errors>\d+)"#,
                    #"^\s*Socket errors: connect \d+, read \d+, write (?<errors>\d+)"#,
                    #"^\s*Socket errors: connect \d+, read \d+, write \d+, timeout (?<errors>\d+)"#,
                ]
            case .locust:
                // The stats row: `Aggregated  12345  3(0.02%) |  5  1  50  4 | 411.50  0.10`.
                // The percentile row: 50% 66% 75% 80% 90% 95% 98% 99% 99.9% 99.99% 100% # reqs.
                let skip = #"\s+\d+"#
                return [
                    #"^\s*Aggregated\s+(?<requests>\d+)\s+(?<errors>\d+)\(\d+(?:\.\d+)?%\)\s*\|\s*(?<mean>\d+)\s+\d+\s+(?<max>\d+)\s*\d+\s*\|\s*(?<throughput>"#
                        + number + ")",
                    #"^\s*Aggregated\s+(?<p50>\d+)"# + skip + skip + skip + #"\s+(?<p90>\d+)"# + skip + skip
                        + #"\s+(?<p99>\d+)\s+(?<p999>\d+)"# + skip + skip + skip + #"\s*$"#,
                ]
            case .pgbench:
                return [
                    #"^tps = (?<throughput>"# + number
                        + #") \((?:without initial connection time|excluding connections establishing)\)"#,
                    #"^latency average = (?<mean>"# + number + " ms)",
                    #"^number of transactions actually processed: (?<requests>\d+)"#,
                    #"^number of failed transactions: (?<errors>\d+)"#,
                    #"^duration: (?<duration>\d+ s)$"#,
                ]
            }
        }
    }
}
