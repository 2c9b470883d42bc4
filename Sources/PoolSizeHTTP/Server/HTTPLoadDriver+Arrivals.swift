import CCurl
import CPoolSizeCurl
import PoolSizeKit
import PoolSizeModel

extension HTTPLoadDriver {
    /// One open-loop run's state: the schedule and its phases, each arrival's intended and end
    /// times, which arrival each handle carries, the arrivals waiting for a connection, and the
    /// window's tallies.
    struct Arrivals {
        let driver: HTTPLoadDriver
        private var schedule: ArrivalSchedule
        /// The next arrival's intended time.
        private(set) var due: UInt64
        /// The window as scheduled: an arrival intended in [windowStart, windowEnd) is the
        /// window's, whenever it was started or finished.
        let windowStart: UInt64
        let windowEnd: UInt64
        /// When arrivals stop and the run ends: the end of the tail.
        let stopAt: UInt64
        /// When the window was opened and closed, as read (its answers and CPU count between).
        private(set) var opened: UInt64?
        private(set) var closed: UInt64?
        private var cpuStart: UInt64 = 0
        private var cpuEnd: UInt64 = 0

        /// Each arrival's intended time, and when it finished (0: not yet).
        private var intended: [UInt64] = []
        private var ended: [UInt64] = []
        private var finished = 0
        /// The arrival each handle carries (-1: idle), and since when.
        private var carrying: [Int]
        private var startedAt: [UInt64]
        private var idle: [Int]
        private var indexOf: [UnsafeMutableRawPointer: Int] = [:]
        /// Arrivals due while every connection was busy, first come first started.
        private var waiting: [Int] = []
        private var waitingHead = 0
        private var inFlight = 0
        private var peakInFlight = 0

        private var backlog: [Int] = []
        private var lags: [UInt64] = []
        private var waited = 0
        private var longestWait: UInt64 = 0
        /// The window's 2xx answers' times on their connection, and their sum for a checkpoint.
        private var answers = Answers()

        init(driver: HTTPLoadDriver, trial: OpenLoopTrial, seed: UInt64, start: UInt64) {
            self.driver = driver
            schedule = ArrivalSchedule(trial, seed: seed, start: start)
            due = schedule.next()
            windowStart = start &+ trial.warmupNanoseconds
            windowEnd = windowStart &+ trial.windowNanoseconds
            stopAt = windowEnd &+ trial.tailNanoseconds
            carrying = Array(repeating: -1, count: driver.handles.count)
            startedAt = Array(repeating: 0, count: driver.handles.count)
            idle = Array(driver.handles.indices.reversed())
            let expected = trial.ratePerSecond * Double(trial.totalNanoseconds) / 1e9 * 1.1
            intended.reserveCapacity(Int(min(1e7, expected)))
            ended.reserveCapacity(Int(min(1e7, expected)))
            for (index, handle) in driver.handles.enumerated() {
                if let raw = handle.multiHandle { indexOf[raw] = index }
            }
        }

        /// Opens the window once `now` has reached it; true when it opened now.
        mutating func opens(at now: UInt64) -> Bool {
            guard opened == nil, now >= windowStart else { return false }
            opened = now
            return true
        }

        /// Starts the driver's CPU clock, after what the caller read as the window opened.
        mutating func startCPU() { cpuStart = driver.clocks.threadCPUNanoseconds() }

        /// Closes the window once `now` has reached its end, the driver's CPU read first; true
        /// when it closed now.
        mutating func closes(at now: UInt64) -> Bool {
            guard opened != nil, closed == nil, now >= windowEnd else { return false }
            cpuEnd = driver.clocks.threadCPUNanoseconds()
            closed = now
            return true
        }

        /// The next instant something is due: an arrival, a window edge, or the end.
        var nextDeadline: UInt64 {
            var next = min(due, stopAt)
            if opened == nil { next = min(next, windowStart) }
            if closed == nil { next = min(next, windowEnd) }
            return next
        }

        /// Every arrival due by `now` (and before the end): started on an idle connection at
        /// once, or queued for the next one free when none is.
        mutating func dispatch(at now: UInt64) throws(PoolSizeError) {
            while due <= now && due < stopAt {
                let index = intended.count
                intended.append(due)
                ended.append(0)
                if due >= windowStart && due < windowEnd {
                    backlog.append(index - finished)
                    lags.append(now &- due)
                    if idle.isEmpty { waited += 1 }
                }
                if let handle = idle.popLast() {
                    try start(handle, arrival: index, at: now)
                } else {
                    waiting.append(index)
                }
                due = schedule.next()
            }
        }

        /// Hands handle `handle` to the multi handle carrying arrival `arrival`.
        private mutating func start(_ handle: Int, arrival: Int, at now: UInt64) throws(PoolSizeError) {
            try driver.add(handle)
            carrying[handle] = arrival
            startedAt[handle] = now
            inFlight += 1
            peakInFlight = max(peakInFlight, inFlight)
        }

        /// Reads every finished transfer: its arrival's end, the window's tallies, and the
        /// oldest waiting arrival started on the connection it freed. True when one was started.
        mutating func collect(at now: UInt64) throws(PoolSizeError) -> Bool {
            var started = false
            var queued: Int32 = 0
            while let message = curl_multi_info_read(driver.multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                    let handle = indexOf[raw], carrying[handle] >= 0
                else { continue }
                let code = poolsize_curl_message_result(message)
                curl_multi_remove_handle(driver.multi, raw)
                let arrival = carrying[handle]
                carrying[handle] = -1
                inFlight -= 1
                ended[arrival] = max(now, 1)
                finished += 1
                if opened != nil && closed == nil { tally(handle, code, at: now) }
                if waitingHead < waiting.count && now < stopAt {
                    let next = waiting[waitingHead]
                    waitingHead += 1
                    if intended[next] >= windowStart && intended[next] < windowEnd {
                        longestWait = max(longestWait, now &- intended[next])
                    }
                    try start(handle, arrival: next, at: now)
                    started = true
                } else {
                    idle.append(handle)
                }
            }
            if waitingHead > 4_096 && waitingHead * 2 > waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            return started
        }

        /// A 2xx answer counts, with its time on the connection; anything else is a failure.
        private mutating func tally(_ handle: Int, _ code: CURLcode, at now: UInt64) {
            answers.tally(driver.handles[handle], code, elapsed: now &- startedAt[handle])
        }

        /// The window so far, at `now`.
        func checkpoint(at now: UInt64) -> Checkpoint {
            answers.checkpoint(nanoseconds: now &- (opened ?? now))
        }

        /// The run's figures, the run stopped at `stoppedAt`: the window's answers, and its
        /// arrivals, one not finished counted with the time it had waited by then.
        func result(stoppedAt: UInt64) -> HTTPOpenLoopResult {
            let from = opened ?? stoppedAt, to = closed ?? stoppedAt
            let seconds = Double(to &- from) / 1e9
            var latencies: [UInt64] = []
            var unfinished = 0
            for (index, at) in intended.enumerated() where at >= windowStart && at < windowEnd {
                if ended[index] != 0 {
                    latencies.append(ended[index] > at ? ended[index] - at : 0)
                } else {
                    unfinished += 1
                    latencies.append(stoppedAt > at ? stoppedAt - at : 0)
                }
            }
            // An arrival still waiting for a connection at the end has waited until now.
            var longest = longestWait
            for index in waiting[waitingHead...] where intended[index] >= windowStart && intended[index] < windowEnd {
                longest = max(longest, stoppedAt &- intended[index])
            }
            let cpu = cpuEnd >= cpuStart ? cpuEnd - cpuStart : 0
            let load = answers.result(connections: driver.connections, seconds: seconds, cpu: cpu)
            let raw = OpenLoopRaw(
                ratePerSecond: schedule.ratePerSecond, arrivalsInWindow: latencies.count, latencies: latencies,
                unfinished: unfinished, backlog: backlog, dispatchLags: lags)
            return HTTPOpenLoopResult(
                load: load, raw: raw, waitedForConnection: waited, longestConnectionWaitNanoseconds: longest,
                serviceSeconds: answers.times.isEmpty ? 0 : Double(answers.sum) / Double(answers.times.count) / 1e9,
                peakInFlight: peakInFlight)
        }

        /// Takes every transfer still in flight out of the multi handle (libcurl closes its
        /// connection: it is mid-answer).
        mutating func removeAll() {
            for index in driver.handles.indices where carrying[index] >= 0 {
                driver.remove(index)
                carrying[index] = -1
            }
        }
    }
}
