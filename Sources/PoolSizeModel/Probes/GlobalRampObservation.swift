/// What the global-ramp probe saw: distinct worker threads that had run blocking tasks on
/// `DispatchQueue.global()` at a few checkpoints.
///
/// docs/platform.md: the Linux libdispatch starts the global queue at about `cores` threads and, while
/// every worker is blocked, adds at most one thread per second per QoS bucket (its workqueue
/// monitor pokes one thread per tick). So after t seconds of blocking work there should be no
/// more than cores + ⌈t⌉ threads, far fewer than the blocked tasks that could use one.
package struct GlobalRampObservation: Equatable, Sendable, Codable, ProbeObservation {
    package struct Checkpoint: Equatable, Sendable, Codable {
        package var seconds: Double
        /// Distinct threads that had run one of the probe's tasks by then.
        package var threads: Int
        /// Tasks running (blocked) at that moment.
        package var running: Int

        package init(seconds: Double, threads: Int, running: Int) {
            self.seconds = seconds
            self.threads = threads
            self.running = running
        }
    }

    package var cores: Int
    /// Independent task chains kept outstanding (each blocked task resubmits itself).
    package var tasks: Int
    package var taskMilliseconds: Int
    package var checkpoints: [Checkpoint]
    /// Threads the claim allows above `cores + ⌈t × rate⌉`: a worker left idle by an earlier
    /// probe, or one the monitor added just before the first checkpoint.
    package var slack: Int
    /// Threads per second per bucket the claim allows.
    package var ratePerSecond: Double

    package init(
        cores: Int, tasks: Int, taskMilliseconds: Int, checkpoints: [Checkpoint], slack: Int = 1,
        ratePerSecond: Double = 1
    ) {
        self.cores = cores
        self.tasks = tasks
        self.taskMilliseconds = taskMilliseconds
        self.checkpoints = checkpoints
        self.slack = slack
        self.ratePerSecond = ratePerSecond
    }

    /// Most threads the claim allows after `seconds` of blocking work.
    package func allowedThreads(at seconds: Double) -> Int {
        cores + Int((seconds * ratePerSecond).rounded(.up)) + slack
    }

    package func result() -> ProbeResult {
        let measurements = checkpoints.map { c in
            ProbeMeasurement(
                "threads at \(Self.seconds(c.seconds)) s", expected: "≤ \(allowedThreads(at: c.seconds))",
                observed: "\(c.threads) (\(c.running) running)")
        }
        let expected =
            "about \(cores) threads (cores), growing by at most ~\(Self.number(ratePerSecond))/s; far fewer than \(tasks) blocked tasks"
        let observed =
            checkpoints.isEmpty
            ? "no checkpoints"
            : checkpoints.map { "\($0.threads) @ \(Self.seconds($0.seconds)) s" }.joined(separator: ", ")
        guard let first = checkpoints.first, let last = checkpoints.last, last.threads > 0 else {
            return ProbeResult(
                name: .globalRamp, expected: expected, observed: observed, verdict: .cannotTell,
                explanation: "no task ran on the global queue during the probe", measurements: measurements)
        }
        let over = checkpoints.filter { $0.threads > allowedThreads(at: $0.seconds) }
        let span = last.seconds - first.seconds
        let growth = span > 0 ? Double(last.threads - first.threads) / span : 0
        let verdict: Verdict
        let explanation: String
        if last.threads >= tasks {
            verdict = .differs
            explanation =
                "the global queue gave every blocked task a thread (\(last.threads) for \(tasks) tasks): it grows like the serial queues' overcommit pool"
        } else if let worst = over.first {
            verdict = .differs
            explanation =
                "\(worst.threads) threads after \(Self.seconds(worst.seconds)) s, more than cores + ~\(Self.number(ratePerSecond))/s allows (\(allowedThreads(at: worst.seconds))); growth \(Self.number(growth)) threads/s"
        } else {
            verdict = .holds
            explanation =
                "\(last.threads) threads served \(tasks) blocked tasks after \(Self.seconds(last.seconds)) s (+\(Self.number(growth))/s after the first checkpoint): the global queue cannot size an IO pool"
        }
        return ProbeResult(
            name: .globalRamp, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
