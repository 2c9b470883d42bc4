import CCurl
import CPoolSizeCurl
import CPoolSizeSys
import PoolSizeKit
import PoolSizeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPLoadDriver {
    /// How long opening the connections before an open-loop run may take at most: what has not
    /// answered by then is dropped, and its connection opened when an arrival first needs it.
    static let openingSeconds = 10.0

    /// Runs an open loop on the calling thread: arrivals at `trial`'s rate, spaced by its
    /// arrival process from `seed` (the schedule the in-process open loop draws from the same
    /// seed), through its warm-up, window and tail. Each arrival is started at its intended
    /// time on an idle kept-alive connection (all `connections` are opened first, one request
    /// each); when every connection is busy it waits in the driver, in arrival order, for the
    /// next one free, and is counted (`waitedForConnection`). Latency counts from the intended
    /// time, so a server that stalls, a late start and a wait for a connection all show in it;
    /// at the end of the tail the transfers in flight are abandoned, and an arrival of the
    /// window not finished counts with the time it had waited.
    /// - Parameter checkpoint: called on the driver's thread as the window opens and as it
    ///   closes (while every connection is open), as `run`'s is.
    package func runOpenLoop(
        _ trial: OpenLoopTrial, seed: UInt64, checkpoint: (Checkpoint) -> Void = { _ in }
    ) throws(PoolSizeError) -> HTTPOpenLoopResult {
        // The default 50 µs timer slack would let every wake-up for an arrival come late.
        _ = poolsize_set_timer_slack_ns(1)
        try openConnections()
        // A timer descriptor wakes the poll at an arrival's instant, finer than its milliseconds.
        let timer = poolsize_timer_create()
        defer { if timer >= 0 { close(timer) } }
        var wake = curl_waitfd(fd: timer, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        var run = Arrivals(driver: self, trial: trial, seed: seed, start: clocks.wallNanoseconds() &+ 1_000_000)
        defer { run.removeAll() }
        var running: Int32 = 0
        // The instant the timer is set for: one not yet come need not be set again (a wake-up
        // for an answer leaves the next arrival's instant as it was).
        var armed: UInt64 = 0
        while true {
            var now = clocks.wallNanoseconds()
            if run.opens(at: now) {
                checkpoint(run.checkpoint(at: now))
                run.startCPU()
            }
            if run.closes(at: now) { checkpoint(run.checkpoint(at: now)) }
            if now >= run.stopAt { return run.result(stoppedAt: now) }
            try run.dispatch(at: now)
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { throw Self.failure("curl_multi_perform", performed) }
            now = clocks.wallNanoseconds()
            // A handle just started is sent by the next curl_multi_perform, without a wait.
            if try run.collect(at: now) { continue }
            let deadline = run.nextDeadline
            guard deadline > now else { continue }
            var waitMilliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            if timer >= 0, armed == deadline || poolsize_timer_arm(timer, deadline) == 0 {
                armed = deadline
                // The timer wakes the poll; the timeout only guards against a missed wake-up.
                waitMilliseconds = max(waitMilliseconds, 1) + 1
            }
            let polled =
                timer >= 0
                ? curl_multi_poll(multi, &wake, 1, waitMilliseconds, nil)
                : curl_multi_poll(multi, nil, 0, waitMilliseconds, nil)
            guard polled == CURLM_OK else { throw Self.failure("curl_multi_poll", polled) }
        }
    }

    /// Opens every connection before the arrivals start, with one request on each at once,
    /// so that an arrival finds one kept alive rather than paying for a connect: the multi
    /// handle keeps each in its cache once its answer is read. Failures are not counted (they
    /// are not the trial's); what has not finished within `openingSeconds` is dropped.
    func openConnections() throws(PoolSizeError) {
        var pending = Set<UnsafeMutableRawPointer>()
        defer {
            for raw in pending { curl_multi_remove_handle(multi, raw) }
        }
        for handle in handles {
            guard let raw = handle.multiHandle else { throw .measurementFailed("libcurl handle closed during a run") }
            handle.resetAnswer()
            let code = curl_multi_add_handle(multi, raw)
            guard code == CURLM_OK else { throw Self.failure("curl_multi_add_handle", code) }
            pending.insert(raw)
        }
        let deadline = clocks.wallNanoseconds() &+ UInt64(Self.openingSeconds * 1e9)
        var running: Int32 = 0
        while !pending.isEmpty && clocks.wallNanoseconds() < deadline {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { throw Self.failure("curl_multi_perform", performed) }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle else { continue }
                curl_multi_remove_handle(multi, raw)
                pending.remove(raw)
            }
            if pending.isEmpty { break }
            let polled = curl_multi_poll(multi, nil, 0, 100, nil)
            guard polled == CURLM_OK else { throw Self.failure("curl_multi_poll", polled) }
        }
    }
}
