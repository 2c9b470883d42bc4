/// Every runtime failure the tool reports. Each case prints as one line that names the setting
/// or file at fault and the fix (docs/conventions.md), and maps to a distinct process exit code.
/// A setting is named as a ``Parameter``, mentioned in a message by its name in backquotes;
/// the command line prints its flag there instead (`--sizes`).
public enum PoolSizeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A setting's value is unusable: `parameter` names it, `message` says why and the fix.
    case invalidParameter(Parameter, message: String)
    /// A command-line flag that is no library setting has an unusable value; `flag` is spelled
    /// as the user types it (`--port`). Thrown by the command line and the command's own output
    /// (PoolSizeOutput), never by the library's measuring and analysing targets.
    case invalidOption(flag: String, message: String)
    /// A workload spec file exists but is malformed; `field` is nil for whole-file problems.
    case invalidSpec(file: String, field: String?, message: String)
    /// A file or run directory named on the command line does not exist or cannot be read.
    case inputNotFound(path: String, hint: String)
    /// A CSV or JSON input is malformed.
    case invalidInput(path: String, message: String)
    /// The output directory or a file in it cannot be created or written.
    case cannotWrite(path: String, reason: String)
    /// The directory a command-line flag names for output (`--plots`) cannot be created or
    /// written; `flag` is spelled as the user types it. Thrown by the command line and the
    /// command's own output (PoolSizeOutput), as `invalidOption` is.
    case cannotWriteOption(flag: String, path: String, reason: String)
    /// A synchronization primitive let two tasks into its critical section.
    case integrityViolated(details: String)
    /// `compare` found a regression beyond the threshold.
    case regression(details: String)
    /// `compare` was given runs that measure different things.
    case incomparable(details: String)
    /// A run directory that is whole, but did not measure what the command needs (`plan` needs
    /// W and C, which a load tool run alone never measures); `message` says what it lacks and
    /// what to do instead. Not a damaged file: the run is as its sweep meant it.
    case runLacksMeasurement(path: String, message: String)
    /// A measurement could not be carried out on this machine.
    case measurementFailed(String)
    /// An open-loop sweep in which no size met the latency objective (or kept up): the run
    /// directory and report are written; the message says what would meet it.
    case objectiveNotMet(String)
    /// The run directory to write holds a run, or files of someone else's, that this run may
    /// not replace as asked; `reason` says what is there and the fix.
    case runDirectoryTaken(path: String, reason: String)
    /// Another sweep (whose PID the lock file names, when it could be read) is writing there.
    case runDirectoryLocked(path: String, pid: Int32?)
    /// The run to continue has a spec, seed or plan other than this sweep's.
    case resumeMismatch(path: String, details: String)
    /// The service a sweep measures (the server `parameter` names) went away during it: the
    /// trial it happened in is recorded as invalid, finished trials are kept, and `message` says
    /// how to continue.
    case serviceUnavailable(Parameter, message: String)
    /// `observe` measured its target only in part; what was measured has been printed. One
    /// line per limit (what is still measured, what is not, and what would lift it); `exitCode`
    /// is the first limit's (6–9, or 69 where nothing can be observed).
    case observationLimited(lines: [String], exitCode: Int32)

    /// The one-line message printed on stderr.
    public var description: String {
        switch self {
        case let .invalidParameter(parameter, message):
            return "error: \(parameter.mention): \(message)"
        case let .invalidOption(flag, message):
            return "error: \(flag): \(message)"
        case let .serviceUnavailable(parameter, message):
            return "error: \(parameter.mention): \(message)"
        case let .invalidSpec(file, field?, message):
            return "error: workload spec \(file): field '\(field)': \(message)"
        case let .invalidSpec(file, nil, message):
            return "error: workload spec \(file): \(message)"
        case let .inputNotFound(path, hint):
            return "error: \(path): not found; \(hint)"
        case let .invalidInput(path, message):
            return "error: \(path): \(message)"
        case let .cannotWrite(path, reason):
            let fix =
                Self.isFull(reason)
                ? Self.freeSpace
                : "choose a writable location (\(Parameter.runDirectory.mention) for the run directory, "
                    + "\(Parameter.plotsDirectory.mention) for the charts)"
            return "error: cannot write \(path): \(reason); \(fix)"
        case let .cannotWriteOption(flag, path, reason):
            let fix = Self.isFull(reason) ? Self.freeSpace : "choose a writable directory"
            return "error: \(flag): cannot write \(path): \(reason); \(fix)"
        case let .integrityViolated(details):
            return "error: integrity violated: \(details)"
        case let .regression(details):
            return "regression: \(details)"
        case let .incomparable(details):
            return "error: runs cannot be compared: \(details)"
        case let .runLacksMeasurement(path, message):
            return "error: \(path): \(message)"
        case let .measurementFailed(message):
            return "error: measurement failed: \(message)"
        case let .objectiveNotMet(message):
            return "error: objective not met: \(message)"
        case let .runDirectoryTaken(path, reason):
            return "error: \(Parameter.runDirectory.mention) \(path): \(reason)"
        case let .runDirectoryLocked(path, pid):
            return
                "error: \(path): another sweep (\(pid.map { "pid \($0)" } ?? "pid unknown")) is writing this run "
                + "directory; wait for it to finish or choose another \(Parameter.runDirectory.mention)"
        case let .resumeMismatch(path, details):
            return
                "error: \(Parameter.resumeRun.mention) \(path): \(details); resume with the flags the run was started "
                + "with (its machine.json records them)"
        case let .observationLimited(lines, _):
            return lines.map { "observe: \($0)" }.joined(separator: "\n")
        }
    }

    /// The fix for a write that failed for want of space, where another place is not the only one.
    static let freeSpace = "free space on that file system, or write elsewhere"

    /// Whether a write failed for want of space (ENOSPC, EDQUOT).
    static func isFull(_ reason: String) -> Bool {
        let lowered = reason.lowercased()
        return lowered.contains("no space") || lowered.contains("quota")
    }

    /// Exit codes follow sysexits.h where one fits; 2 and 3 are `compare`'s verdicts
    /// (the convention package-benchmark uses for regressions).
    public var exitCode: Int32 {
        switch self {
        case .regression: return 2
        // A run of the wrong kind for the command, as compare's runs of different things are.
        case .incomparable, .resumeMismatch, .runLacksMeasurement: return 3
        case .integrityViolated: return 4
        case .measurementFailed, .objectiveNotMet: return 5
        case .invalidParameter, .invalidOption: return 64  // EX_USAGE
        case .invalidSpec, .invalidInput: return 65  // EX_DATAERR
        case .inputNotFound: return 66  // EX_NOINPUT
        case .cannotWrite, .cannotWriteOption, .runDirectoryTaken: return 73  // EX_CANTCREAT
        case .runDirectoryLocked: return 75  // EX_TEMPFAIL
        case .serviceUnavailable: return 69  // EX_UNAVAILABLE
        case let .observationLimited(_, code): return code
        }
    }
}
