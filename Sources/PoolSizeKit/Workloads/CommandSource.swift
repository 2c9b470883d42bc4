import CPoolSizeSys
import Foundation
import PoolSizeModel
import PoolSizeProcess

/// A command as the task (`--exec`): each task runs it once with posix_spawn, stdin from
/// /dev/null, and waits for it with wait4. C is the pool thread's CPU plus the child's
/// (rusage user + system), W the rest of the task's wall time. A non-zero exit, a signal or a
/// run past `timeoutSeconds` (SIGTERM, then SIGKILL a second later) is a failed task.
///
/// This is the question `xargs -P`, `make -j` and GNU parallel leave to the user — how many at
/// once? — answered with a measured curve.
package struct CommandSource: WorkloadSource {
    /// The program and its arguments; `arguments[0]` is resolved on PATH.
    package let arguments: [String]
    /// The resolved program.
    package let executable: String
    /// A task running longer than this is stopped and counted as failed.
    package let timeoutSeconds: Double
    /// Where each task's stdout and stderr are kept (`task-<index>.out/.err`); discarded when nil.
    package let outputDirectory: URL?
    /// Whether this process reaps what the commands leave outside their process groups.
    package let reapsOrphans: Bool
    /// A command that starts the same program with nothing to do (`psql -c 'SELECT 1'`), run
    /// instead of the loader-only start when the start-up cost is measured; resolved like
    /// `arguments`.
    package let baseline: [String]?
    let baselineExecutable: String?

    /// A command source; throws (exit 66) when the program does not exist or is not executable,
    /// before anything runs.
    /// - Parameter reapsOrphans: make this process the reaper of the commands' orphans and stop
    ///   every child of it no task waits for at the sweep's end. Only for a process that starts
    ///   no other children during the sweep (the command line's): in a host program it would take
    ///   over the reaping of the host's own children.
    package init(
        arguments: [String], timeoutSeconds: Double = 60, outputDirectory: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, reapsOrphans: Bool = false,
        baseline: [String]? = nil
    ) throws(PoolSizeError) {
        guard let program = arguments.first else {
            throw .invalidParameter(.command, message: "is empty; give a command")
        }
        self.arguments = arguments
        self.executable = try Self.resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        self.timeoutSeconds = timeoutSeconds
        self.outputDirectory = outputDirectory
        self.reapsOrphans = reapsOrphans
        self.baseline = baseline
        if let baseline {
            guard let program = baseline.first else {
                throw .invalidParameter(
                    .commandBaseline, message: "is empty; give a command that starts the program and does nothing")
            }
            do {
                baselineExecutable = try Self.resolve(
                    program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            } catch {
                // Found or not as --exec's program is (66), named for the baseline's setting.
                throw .inputNotFound(
                    path: program,
                    hint:
                        "no such program on PATH, or not one that runs; \(PoolSizeError.Parameter.commandBaseline.mention) runs a program on PATH or at a path"
                )
            }
        } else {
            baselineExecutable = nil
        }
        // Descendants that escape a command's process group stay findable (`LiveChildren.stopOrphans`).
        if reapsOrphans { LiveChildren.becomeReaper() }
    }

    /// A source for a program already resolved, output discarded (a baseline's).
    init(arguments: [String], executable: String, timeoutSeconds: Double) {
        self.arguments = arguments
        self.executable = executable
        self.timeoutSeconds = timeoutSeconds
        outputDirectory = nil
        reapsOrphans = false
        baseline = nil
        baselineExecutable = nil
    }

    /// The program's path: as given when it holds a `/`, else the first executable match on PATH.
    static func resolve(_ program: String, path: String) throws(PoolSizeError) -> String {
        let hint =
            "\(PoolSizeError.Parameter.command.mention) runs a program on PATH or at a path (write sh -c '…' for shell syntax)"
        // `locate` refuses a directory: it has the execute bit too, and would fail only at exec,
        // in every task.
        if case let .success(found) = ChildProcessRunner.locate(program, path: path) { return found }
        if program.contains("/") {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: program, isDirectory: &isDirectory)
            throw .inputNotFound(
                path: program,
                hint: isDirectory.boolValue
                    ? "a directory, not a program; \(hint)" : exists ? "not executable; \(hint)" : hint)
        }
        throw .inputNotFound(path: program, hint: "no such program on PATH; \(hint)")
    }

    /// Unknown: the command's W and C are measured.
    package var declaredTaskNanoseconds: UInt64? { nil }

    /// Anything a command left running outside its process group ends with the sweep: every
    /// child of this process from /proc, since the per-thread lists miss one that moves to
    /// another thread while a pool thread exits.
    package func sweepEnded() {
        if reapsOrphans { LiveChildren.stopOrphans(everyChild: true) }
    }
    /// A command cannot enter the sweep's critical sections.
    package var supportsCriticalSections: Bool { false }

    /// Runs the command once per task.
    package func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        CommandWorkload(source: self)
    }
}

struct CommandWorkload: Workload {
    let source: CommandSource
    /// Read around the spawn and the wait: the task's C ends when the command is reaped, before
    /// its stderr is read for the failure message (that read is the harness's, not the task's).
    var clocks: any MeasurementClocks = SystemClocks()

    func run(task index: UInt64) { _ = execute(task: index) }

    /// On the real clocks, `execute` reports the pool thread's CPU itself.
    var measuresOwnCPU: Bool { clocks is SystemClocks }

    /// Runs the command once as task `index` (`Workload`'s requirement: a defaulted parameter
    /// on the other method would not witness it).
    func execute(task index: UInt64) -> TaskOutcome { execute(task: index, loaderOnly: false) }

    /// Runs the command once as task `index`; `loaderOnly` starts its program the way
    /// `CommandSource.measureProcessStart` does instead: no arguments, and the dynamic loader
    /// told to load and bind everything and exit before the program runs.
    func execute(task index: UInt64, loaderOnly: Bool) -> TaskOutcome {
        let cpuStart = clocks.threadCPUNanoseconds()
        // Kept output goes to named files in its directory; otherwise stdout is discarded and
        // stderr, read back for a failure's message, goes to a file without a name, so none is
        // left in TMPDIR however the sweep ends (a named one survived a SIGKILL).
        let output: TaskOutput
        do { output = try TaskOutput(task: index, directory: source.outputDirectory) } catch {
            return TaskOutcome(
                failure: "\(display) was not started: \(error.reason)",
                cpuNanoseconds: clocks.threadCPUNanoseconds() &- cpuStart)
        }

        // Each command leads a process group of its own, so what it starts (a shell's background
        // job) is stopped with it; it gets only stdin, stdout and stderr (not the run
        // directory's lock, not a pipe a parent waits on for EOF), default SIGINT and SIGTERM
        // (the sweep ignores them while it runs, and an ignored signal survives exec), and it
        // dies with its pool thread if poolsize is killed.
        let argv = (loaderOnly ? [source.arguments[0]] : source.arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let loaderEnvironment = loaderOnly ? Self.loaderEnvironment().map { strdup($0) } + [nil] : []
        defer { for pointer in loaderEnvironment { free(pointer) } }
        var pid: Int32 = 0
        guard LiveChildren.beginSpawn() else {
            return TaskOutcome(
                failure: "\(display) was not started: the sweep is stopping",
                cpuNanoseconds: clocks.threadCPUNanoseconds() &- cpuStart)
        }
        let spawned = output.spawn(
            source.executable, argv, environment: loaderOnly ? loaderEnvironment : nil, pid: &pid)
        LiveChildren.endSpawn(spawned == 0 ? pid : nil)
        guard spawned == 0 else {
            return TaskOutcome(
                failure: "\(display) could not start: \(String(cString: strerror(spawned)))",
                cpuNanoseconds: clocks.threadCPUNanoseconds() &- cpuStart)
        }

        let watch = Watchdog(pid: pid)
        watch.arm(after: source.timeoutSeconds)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let timedOut = watch.disarm()
        // Whatever the command left running in its group ends with the task (ESRCH when none).
        kill(-pid, SIGKILL)
        LiveChildren.remove(pid)
        let ownCPU = clocks.threadCPUNanoseconds() &- cpuStart

        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        let cpu = ns(usage.ru_utime) + ns(usage.ru_stime)
        let signal = status & 0x7f
        let failure: String?
        if timedOut {
            failure =
                "\(display) ran past \(PoolSizeError.Parameter.taskTimeout.mention) \(UnitFormat.duration(source.timeoutSeconds)) and was stopped"
        } else if signal != 0 {
            failure = "\(display) was killed by signal \(signal)"
        } else if (status >> 8) & 0xff != 0 {
            failure = "\(display) exited with status \((status >> 8) & 0xff)"
        } else {
            failure = nil
        }
        guard let failure else { return TaskOutcome(childCPUNanoseconds: cpu, cpuNanoseconds: ownCPU) }
        return TaskOutcome(childCPUNanoseconds: cpu, failure: failure + output.stderrNote(), cpuNanoseconds: ownCPU)
    }

    /// This process's environment with the dynamic loader told to list the program's libraries
    /// and exit (ld.so(8): `LD_TRACE_LOADED_OBJECTS`), binding every symbol first (`LD_BIND_NOW`).
    static func loaderEnvironment() -> [String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LD_") }.map { "\($0.key)=\($0.value)" }
            + ["LD_TRACE_LOADED_OBJECTS=1", "LD_BIND_NOW=1"]
    }

    /// `'gzip -c data'`, `sh -c 'sleep 1; exit 3'`: the command as it could be typed again.
    var display: String { Secrets.commandText(ShellWords.join(source.arguments)) }
}

/// Stops a child that runs too long: SIGTERM at the deadline, SIGKILL a second later, unless
/// the child has been reaped by then.
final class Watchdog: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    private var reaped = false
    private var fired = false
    private var pending: DispatchWorkItem?

    init(pid: pid_t) { self.pid = pid }

    func arm(after seconds: Double) {
        let item = DispatchWorkItem { [self] in
            guard signal(SIGTERM) else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in _ = signal(SIGKILL) }
        }
        lock.lock()
        pending = item
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
    }

    /// Sends `number` unless the child is gone; true when it was sent.
    private func signal(_ number: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !reaped else { return false }
        fired = true
        // The whole group: a shell's children would otherwise keep running past the timeout.
        kill(-pid, number)
        return true
    }

    /// Marks the child reaped; true when the watchdog had to stop it.
    func disarm() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        reaped = true
        // A task that finished in time leaves no timer behind for the rest of the sweep.
        pending?.cancel()
        return fired
    }
}
