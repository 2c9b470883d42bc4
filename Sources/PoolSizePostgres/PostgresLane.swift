import CPoolSizeSys
import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization

/// One thread of `PostgresAsyncDriver` and its share of the connections: each connection runs
/// the script's transactions one after another, each command sent without blocking; the thread
/// waits in one poll(2) on every connection's socket and a timer for the next `\sleep`'s end,
/// and steps whichever connection is ready. Every transaction is recorded as a task sample (its
/// CPU filled in by the driver); completions are also handed to the driver as they come, for
/// its stop rule. Confined to its thread while it runs; the driver reads the rest once it ended.
final class PostgresLane: @unchecked Sendable {
    // @unchecked: `slots`, `samples` and `failures` belong to the lane's thread while `run`
    // runs, and to the driver after it ended (the driver's group wait orders the two);
    // `newEnds` is shared under its lock.

    /// Where one connection's transaction stands.
    enum Phase {
        /// Between transactions: the next starts on the next pass (or none, once stopping).
        case ready
        /// A command sent, its answer awaited.
        case querying
        /// A `\sleep` until this instant (CLOCK_MONOTONIC ns).
        case sleeping(until: UInt64)
        /// ROLLBACK sent after a command failed inside a transaction block; the transaction
        /// then ends failed with this reason.
        case rollingBack(String)
        /// No more transactions: the trial is over, or the connection broke.
        case done
    }

    /// One connection and its transaction in progress.
    struct Slot {
        let connection: PostgresConnection
        var phase = Phase.ready
        /// When the transaction in progress started.
        var started: UInt64 = 0
        /// The transaction's index: this connection's number, stepped by the connections'
        /// count, as a closed loop's chains number their tasks.
        var index: UInt64
        var generator = SeededGenerator(seed: 0)
        /// The command in progress: its outcome so far.
        var outcome = PostgresOutcome.ok
        /// libpq still holds part of the command sent, for a socket that was full.
        var unsent = false
    }

    let program: PgProgram
    let seed: UInt64
    let stride: UInt64
    let failed: @Sendable (String) -> Void
    var slots: [Slot]
    /// Every transaction that ended, warm-up and drain included; CPU is the driver's to fill.
    var samples: [TaskSample] = []
    /// Why the first few transactions failed.
    var failures: [String] = []
    /// The kernel id of the lane's thread, and its CPU clock (pthread_getcpuclockid).
    var thread: Int32 = 0
    var nice: Int32 = 0
    /// Completions not yet handed to the driver.
    let newEnds = Mutex<[UInt64]>([])

    /// A lane for `connections`, numbered from `first` among `stride` in all.
    init(
        program: PgProgram, seed: UInt64, connections: [PostgresConnection], numbers: [Int], stride: Int,
        failed: @escaping @Sendable (String) -> Void
    ) {
        self.program = program
        self.seed = seed
        self.stride = UInt64(max(1, stride))
        self.failed = failed
        slots = zip(connections, numbers).map { Slot(connection: $0, index: UInt64($1)) }
    }

    /// The first failures kept per lane, as a trial's record keeps a few examples.
    static let failuresKept = 3

    /// Runs transactions until `control` says stop, then lets each connection finish the one
    /// in progress; on `control`'s abort the connections still busy are closed at once.
    func run(_ control: PostgresAsyncDriver.Control) {
        let clock = SystemClocks()
        let timer = poolsize_timer_create()
        defer { if timer >= 0 { close(timer) } }
        var fds: [pollfd] = []
        var polled: [Int] = []
        var armed: UInt64 = 0
        while true {
            if control.abort.load(ordering: .relaxed) {
                for index in slots.indices where !isIdle(slots[index].phase) {
                    slots[index].connection.close()
                    slots[index].phase = .done
                }
                return
            }
            let stopping = control.stop.load(ordering: .relaxed)
            var now = clock.wallNanoseconds()
            var nextWake = UInt64.max
            var busy = 0
            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            for index in slots.indices {
                switch slots[index].phase {
                case .ready:
                    if stopping {
                        slots[index].phase = .done
                    } else {
                        start(index, clock: clock)
                        now = clock.wallNanoseconds()
                    }
                case let .sleeping(until) where until <= now:
                    step(index, clock: clock)
                    now = clock.wallNanoseconds()
                default: break
                }
                switch slots[index].phase {
                case .querying, .rollingBack:
                    let events = slots[index].unsent ? POLLIN | POLLOUT : POLLIN
                    fds.append(pollfd(fd: slots[index].connection.socket, events: Int16(events), revents: 0))
                    polled.append(index)
                    busy += 1
                case let .sleeping(until):
                    nextWake = min(nextWake, until)
                    busy += 1
                case .ready:
                    busy += 1
                case .done: break
                }
            }
            guard busy > 0 else { return }
            // The stop flag is looked at every 20 ms at the latest.
            let deadline = min(nextWake, now + 20_000_000)
            var waitMilliseconds = Int32(clamping: (deadline &- min(deadline, now) + 999_999) / 1_000_000)
            if nextWake != .max, timer >= 0, armed == nextWake || poolsize_timer_arm(timer, nextWake) == 0 {
                armed = nextWake
                fds.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0))
                // The timer wakes the poll; the timeout only guards against a missed wake-up.
                waitMilliseconds = max(waitMilliseconds, 1) + 1
            }
            let ready = poll(&fds, nfds_t(fds.count), waitMilliseconds)
            guard ready > 0 else { continue }
            for (position, index) in polled.enumerated() where fds[position].revents != 0 {
                answer(index, clock: clock)
            }
            if fds.count > polled.count, fds[polled.count].revents != 0 {
                var expirations: UInt64 = 0
                _ = read(timer, &expirations, MemoryLayout<UInt64>.size)
                armed = 0
            }
        }
    }

    /// Whether the slot has nothing in flight.
    private func isIdle(_ phase: Phase) -> Bool {
        switch phase {
        case .ready, .done, .sleeping: true
        default: false
        }
    }

    /// Starts the slot's next transaction.
    private func start(_ index: Int, clock: SystemClocks) {
        slots[index].started = clock.wallNanoseconds()
        slots[index].generator = SeededGenerator(seed: seed ^ (slots[index].index &* 0x9E37_79B9_7F4A_7C15))
        program.begin(clientID: Int64(slots[index].connection.clientID), state: &slots[index].connection.transaction)
        step(index, clock: clock)
    }

    /// Runs the slot's transaction up to its next wait: a command sent, a `\sleep`, or its end.
    private func step(_ index: Int, clock: SystemClocks) {
        let connection = slots[index].connection
        let action = program.advance(&connection.transaction) { range in
            Int64.random(in: range, using: &slots[index].generator)
        }
        switch action {
        case .sql:
            slots[index].outcome = .ok
            if let failure = connection.transaction.withSQL({ connection.send($0) }) {
                commandEnded(index, failure, clock: clock)
                return
            }
            slots[index].phase = .querying
            flush(index, clock: clock)
        case let .sleep(microseconds):
            let (nanoseconds, overflow) = UInt64(microseconds).multipliedReportingOverflow(by: 1_000)
            slots[index].phase = .sleeping(until: clock.wallNanoseconds() &+ (overflow ? UInt64.max / 2 : nanoseconds))
        case .end:
            finish(index, failure: nil, clock: clock)
        case let .failed(failure):
            finish(index, failure: failure.reason, clock: clock)
        }
    }

    /// Sends what libpq holds of the slot's command (or ROLLBACK); a connection that fails
    /// there ends the command failed.
    private func flush(_ index: Int, clock: SystemClocks) {
        let flushed = slots[index].connection.flush()
        slots[index].unsent = flushed == 1
        guard flushed < 0 else { return }
        let failure = PostgresOutcome.failed(sqlState: "", message: "the connection failed while sending")
        if case let .rollingBack(reason) = slots[index].phase {
            finish(index, failure: reason, clock: clock)
        } else {
            commandEnded(index, failure, clock: clock)
        }
    }

    /// The slot's socket is ready: sends the rest of its command, and reads its answer.
    private func answer(_ index: Int, clock: SystemClocks) {
        if slots[index].unsent {
            flush(index, clock: clock)
            // A connection that failed while sending has ended its command already.
            switch slots[index].phase {
            case .querying, .rollingBack: break
            default: return
            }
        }
        guard slots[index].connection.collect(into: &slots[index].outcome) else { return }
        if case let .rollingBack(reason) = slots[index].phase {
            finish(index, failure: reason, clock: clock)
            return
        }
        commandEnded(index, slots[index].outcome, clock: clock)
    }

    /// The slot's command ended with `outcome`: the transaction goes on, or ends failed (after
    /// a ROLLBACK when a transaction block is left open), as `PostgresConnection.execute` does.
    private func commandEnded(_ index: Int, _ outcome: PostgresOutcome, clock: SystemClocks) {
        let connection = slots[index].connection
        guard case let .failed(state, message) = connection.timedOut(outcome) else {
            step(index, clock: clock)
            return
        }
        failed(state)
        let reason = state.isEmpty ? message : "SQLSTATE \(state): \(message)"
        if connection.isUsable, connection.transactionState.inBlock, connection.send("ROLLBACK") == nil {
            slots[index].outcome = .ok
            slots[index].phase = .rollingBack(reason)
            flush(index, clock: clock)
            return
        }
        finish(index, failure: reason, clock: clock)
    }

    /// The slot's transaction ended; a broken connection runs no more.
    private func finish(_ index: Int, failure: String?, clock: SystemClocks) {
        let ended = clock.wallNanoseconds()
        var sample = TaskSample(
            submitted: slots[index].started, started: slots[index].started, ended: ended, cpuNanoseconds: 0,
            thread: thread, nice: nice)
        if let failure {
            sample.failed = true
            if failures.count < Self.failuresKept { failures.append(failure) }
        }
        samples.append(sample)
        if failure == nil { newEnds.withLock { $0.append(ended) } }
        slots[index].index &+= stride
        slots[index].phase = slots[index].connection.isUsable ? .ready : .done
    }
}
