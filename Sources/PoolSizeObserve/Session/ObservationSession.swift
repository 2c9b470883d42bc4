import PoolSizeProcess

/// One observation from start to end: start the target when it is a command, probe it,
/// sample it, stop it. What `poolsize observe` runs between parsing its flags and printing.
package enum ObservationSession {
    /// Why nothing could be observed.
    package enum Failure: Error, Equatable, Sendable {
        /// No process with that id.
        case processNotFound(pid: Int32)
        /// The process has exited: a zombie its parent has not reaped.
        case processExited(pid: Int32)
        /// A kernel thread, which has no user-space pool.
        case kernelThread(pid: Int32)
        /// Not Linux (or an architecture whose syscall numbers are unknown).
        case unsupported
        /// The command's program was not found or is not executable.
        case commandNotFound(program: String, reason: String)
        /// The command could not be started.
        case cannotStart(program: String, reason: String)
        /// `--counter` gave no total as the observation started.
        case counterFailed(TaskCounter.Failure)
        /// The stop signal came before the first sweep (during the counter's first read).
        case interrupted
    }

    /// What a session produced.
    package struct Result: Sendable {
        /// The samples and their header.
        package var outcome: SamplerOutcome
        /// A started command's stdout and stderr; nil for a running process.
        package var commandOutput: (standardOutput: String, standardError: String)?
        /// What `--counter` counted over the observation, or why its last read failed; nil
        /// without a counter.
        package var count: Swift.Result<TaskCount, TaskCounter.Failure>?
    }

    /// How long a started command has after SIGTERM to exit (and print its own figures)
    /// before SIGKILL.
    package static let commandGraceSeconds = 2.0

    /// Observes `target` as `plan` says (its pid is taken from the target), reading `counter`
    /// just before the first sweep and just after the last. A started command and all it starts
    /// end with the session, or with this process (`ChildTarget`).
    package static func run<Generator: RandomNumberGenerator>(
        target: ObserveTarget, plan: SamplerPlan, parallelism: Int?, generator: Generator, stop: StopSignal,
        counter: TaskCounter? = nil
    ) throws(Failure) -> Result {
        var child: ChildTarget?
        let pid: Int32
        switch target {
        case let .process(id):
            pid = id
        case let .command(arguments):
            do {
                child = try ChildTarget(arguments: arguments)
            } catch {
                switch error {
                case let .notFound(program, reason): throw .commandNotFound(program: program, reason: reason)
                case let .cannotStart(program, reason): throw .cannotStart(program: program, reason: reason)
                }
            }
            pid = child!.pid
        }
        defer { child?.stop(graceSeconds: commandGraceSeconds) }
        var probe: TargetProbe
        do {
            // A command observe started is the target whatever becomes of it: one that exits at
            // once is observed as exited, not refused.
            if child == nil { try TargetProbe.check(pid: pid) }
            probe = try TargetProbe.probe(pid: pid, parallelism: parallelism)
        } catch {
            throw Failure(error)
        }
        // A command just started may still be inside execve, its /proc cmdline not yet set.
        if case let .command(arguments) = target { probe.command = arguments.joined(separator: " ") }
        var samplerPlan = plan
        samplerPlan.pid = pid
        var first: (total: Double, timeSeconds: Double)?
        if let counter {
            // Ctrl-C during this read kills the counter at once (not after its watchdog); a stop
            // in the moment before it starts leaves it its run, usually milliseconds.
            guard !stop.isStopped else { throw .interrupted }
            let reading = stop.cancelling(by: { ChildProcessRunner.stopRunning() }) { counter.read() }
            guard !stop.isStopped else { throw .interrupted }
            switch reading {
            case let .success(reading): first = reading
            case let .failure(failure): throw .counterFailed(failure)
            }
        }
        let outcome = Sampler.run(
            plan: samplerPlan, probe: probe, startedByObserver: child != nil, generator: generator, stop: stop)
        let count = counter.flatMap { counter in
            first.map { first in counter.read().map { counter.count(from: first, to: $0) } }
        }
        child?.stop(graceSeconds: commandGraceSeconds)
        return Result(outcome: outcome, commandOutput: child?.output, count: count)
    }
}
