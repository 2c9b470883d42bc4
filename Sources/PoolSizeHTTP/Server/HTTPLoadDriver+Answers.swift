import CCurl

extension HTTPLoadDriver {
    /// What a run's finished transfers came to, counted the same way by both loops (`Loop`,
    /// `Arrivals`): each 2xx answer's time on its connection and their sum (a checkpoint's
    /// mean), and the failures with the first one's reason.
    struct Answers {
        /// Each success's time, from the transfer's start to its answer, in nanoseconds.
        private(set) var times: [UInt64] = []
        /// `times` added up.
        private(set) var sum: UInt64 = 0
        /// Transfers that ended without a 2xx answer.
        private(set) var failures = 0
        /// Why the first of them failed.
        private(set) var firstFailure: String?

        /// Room for `count` successes before the window, so that appending costs no copy in it.
        mutating func reserve(_ count: Int) { times.reserveCapacity(count) }

        /// A whole answer with a 2xx status counts, with `elapsed` its time on the connection;
        /// anything else is a failure.
        mutating func tally(_ handle: CurlEasy, _ code: CURLcode, elapsed: UInt64) {
            if HTTPLoadDriver.succeeded(handle, code) {
                times.append(elapsed)
                sum &+= elapsed
                return
            }
            failures += 1
            if firstFailure == nil { firstFailure = HTTPLoadDriver.failureText(handle, code) }
        }

        /// The window so far, `nanoseconds` long.
        func checkpoint(nanoseconds: UInt64) -> Checkpoint {
            Checkpoint(nanoseconds: nanoseconds, requests: times.count, failures: failures, latencySumNanoseconds: sum)
        }

        /// The figures over a window of `seconds` in which the driver's thread used `cpu`
        /// nanoseconds, with `connections` in flight.
        func result(connections: Int, seconds: Double, cpu: UInt64) -> HTTPLoadResult {
            HTTPLoadResult(
                connections: connections, requests: times.count, failures: failures, windowSeconds: seconds,
                throughputPerSecond: seconds > 0 ? Double(times.count) / seconds : 0,
                latency: HTTPLoadResult.percentiles(times), driverCPUMicroseconds: Double(cpu) / 1_000,
                firstFailure: firstFailure)
        }
    }
}
