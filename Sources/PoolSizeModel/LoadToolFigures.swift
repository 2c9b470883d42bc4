/// What a load tool printed about one run, as `LoadToolParser` read it.
package struct LoadToolFigures: Equatable, Sendable {
    /// Requests (transactions, operations) per second, as the tool counts them: wrk's
    /// `Requests/sec` counts answers of every status, its non-2xx ones too.
    package var throughputPerSecond: Double
    /// Latency percentiles in µs; nil when no pattern captured one, else 0 for each one not
    /// captured (`LatencyPercentiles`' "not recorded"). wrk prints p50, p90 and p99 with
    /// `--latency` (and its max always); pgbench prints none.
    package var latency: LatencyPercentiles?
    /// Mean latency in µs, when the tool printed one.
    package var meanLatencyMicroseconds: Double?
    /// Failed requests, the captures of every pattern that has the group added up; 0 when the
    /// tool printed none.
    package var errors: Int
    /// Requests the tool completed, when it printed the count.
    package var requests: Double?
    /// The span the tool measured over in seconds, when it printed it.
    package var durationSeconds: Double?
    /// How many different throughputs a preset read in the tool's output (on the stream the
    /// figure was read from); past 1, `throughputPerSecond` is the last of them. 1 for a
    /// user's expressions, which may capture progress lines before the summary.
    package var throughputsPrinted: Int
    /// Arrivals the tool scheduled at a rate and did not send (`LoadToolGroup.dropped`), when it
    /// printed the count.
    package var dropped: Double?
    /// The most requests the tool could have in flight (`LoadToolGroup.concurrency`), when it
    /// printed it.
    package var concurrency: Int?
    /// The line in which the tool said it was itself the limit (a preset's
    /// `saturationPatterns`: Locust's CPU warnings); nil when it said nothing of the kind.
    package var saidBound: String?

    /// Figures as read.
    package init(
        throughputPerSecond: Double, saidBound: String? = nil, latency: LatencyPercentiles? = nil,
        meanLatencyMicroseconds: Double? = nil, errors: Int = 0, requests: Double? = nil,
        durationSeconds: Double? = nil, throughputsPrinted: Int = 1, dropped: Double? = nil,
        concurrency: Int? = nil
    ) {
        self.throughputPerSecond = throughputPerSecond
        self.saidBound = saidBound
        self.latency = latency
        self.meanLatencyMicroseconds = meanLatencyMicroseconds
        self.errors = errors
        self.requests = requests
        self.durationSeconds = durationSeconds
        self.throughputsPrinted = throughputsPrinted
        self.dropped = dropped
        self.concurrency = concurrency
    }
}
