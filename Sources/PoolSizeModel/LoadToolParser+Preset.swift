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

        /// The presets, listed for a message.
        static var listed: String { allCases.map(\.rawValue).joined(separator: ", ") }

        /// The preset's regular expressions.
        package var patterns: [String] {
            // Numbers and units as the tools print them: wrk `2.32ms`, `450.00us`, `1.02m`.
            let number = #"\d+(?:\.\d+)?"#
            let time = number + "[a-zµ]+"
            switch self {
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
