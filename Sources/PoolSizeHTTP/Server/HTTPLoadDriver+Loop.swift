import CCurl
import CPoolSizeCurl
import PoolSizeKit
import PoolSizeModel
import PoolSizeStats

extension HTTPLoadDriver {
    /// One run's state: which handle is which, when each transfer started, and the window's
    /// tallies.
    struct Loop {
        let driver: HTTPLoadDriver
        /// The end of the warm-up: the window's start.
        let windowStart: UInt64
        /// How long the window lasts once it has opened.
        let duration: UInt64
        /// When the window ends: its duration after the instant it opened (never before).
        private(set) var end = UInt64.max
        private(set) var inWindow: Bool
        private var cpuStart: UInt64 = 0
        private var measuredFrom: UInt64 = 0
        private var indexOf: [UnsafeMutableRawPointer: Int] = [:]
        private var started: [UInt64]
        private var added: [Bool]
        /// When a handle whose connection failed may try again (0: not waiting): a server that
        /// refuses or resets connections must not make the driver spin a core, as restarting at
        /// once would.
        private var retryAt: [UInt64]
        /// The finished transfers.
        private var answers = Answers()
        /// The window's successes, for the margin its throughput is known to; nil before it opens.
        private var bins: CompletionBins?

        init(driver: HTTPLoadDriver, start: UInt64, warmup: UInt64, duration: UInt64) {
            self.driver = driver
            windowStart = start &+ warmup
            self.duration = duration
            inWindow = false
            started = Array(repeating: 0, count: driver.handles.count)
            added = Array(repeating: false, count: driver.handles.count)
            retryAt = Array(repeating: 0, count: driver.handles.count)
            answers.reserve(1 << 16)
            for (index, handle) in driver.handles.enumerated() {
                if let raw = handle.multiHandle { indexOf[raw] = index }
            }
            if warmup == 0 { reachWindow(at: start) }
        }

        /// Opens the window once `now` has passed the warm-up: the CPU clock starts here.
        mutating func reachWindow(at now: UInt64) {
            guard !inWindow, now >= windowStart else { return }
            inWindow = true
            measuredFrom = now
            bins = CompletionBins(start: now)
            end = now &+ duration
            cpuStart = driver.clocks.threadCPUNanoseconds()
        }

        /// Hands handle `index` to the multi handle for its next transfer.
        mutating func start(_ index: Int, at now: UInt64) throws(PoolSizeError) {
            try driver.add(index)
            started[index] = now
            added[index] = true
        }

        /// Reads every finished transfer, tallies those in the window, and starts each handle's
        /// next transfer when `restarting`; true when any was started.
        mutating func collect(at now: UInt64, restarting: Bool) throws(PoolSizeError) -> Bool {
            var restarted = false
            var queued: Int32 = 0
            while let message = curl_multi_info_read(driver.multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                    let index = indexOf[raw]
                else { continue }
                let code = poolsize_curl_message_result(message)
                curl_multi_remove_handle(driver.multi, raw)
                added[index] = false
                if inWindow { tally(index, code, at: now) }
                guard restarting else { continue }
                if code == CURLE_OK {
                    try start(index, at: now)
                    restarted = true
                } else {
                    retryAt[index] = now &+ HTTPLoadDriver.retryDelayNanoseconds
                }
            }
            return restarted
        }

        /// Starts every handle whose wait after a failed connection is over; true when any was.
        mutating func retry(at now: UInt64) throws(PoolSizeError) -> Bool {
            var restarted = false
            for index in retryAt.indices where retryAt[index] != 0 && retryAt[index] <= now {
                retryAt[index] = 0
                try start(index, at: now)
                restarted = true
            }
            return restarted
        }

        /// The next instant a waiting handle may try again; nil when none waits.
        var nextRetry: UInt64? { retryAt.filter { $0 != 0 }.min() }

        /// A success is a whole answer with a 2xx status; anything else is a failure.
        mutating func tally(_ index: Int, _ code: CURLcode, at now: UInt64) {
            let before = answers.times.count
            answers.tally(driver.handles[index], code, elapsed: now &- started[index])
            if answers.times.count > before { bins?.add(now) }
        }

        /// The window's throughput so far, over its whole bins before `now`; nil before it opens.
        func estimate(at now: UInt64) -> RateEstimate? { bins?.estimate(at: now) }

        /// How long the window has been open at `now`.
        func elapsed(at now: UInt64) -> UInt64 { inWindow && now > measuredFrom ? now - measuredFrom : 0 }

        /// Ends the window at `now`, before its planned end.
        mutating func close(at now: UInt64) { end = now }

        /// The window so far, at `now`.
        func checkpoint(at now: UInt64) -> Checkpoint {
            answers.checkpoint(nanoseconds: inWindow ? now &- measuredFrom : 0)
        }

        /// The window's figures, the window ending at `now`.
        func result(at now: UInt64) -> HTTPLoadResult {
            let cpu = inWindow ? driver.clocks.threadCPUNanoseconds() &- cpuStart : 0
            let seconds = inWindow ? Double(now &- measuredFrom) / 1e9 : 0
            var result = answers.result(connections: driver.connections, seconds: seconds, cpu: cpu)
            result.throughputMargin = estimate(at: now)?.relativeHalfWidth
            return result
        }

        /// Takes every transfer still in flight out of the multi handle (libcurl closes its
        /// connection: it is mid-answer).
        mutating func removeAll() {
            for index in driver.handles.indices where added[index] {
                driver.remove(index)
                added[index] = false
            }
        }
    }
}
