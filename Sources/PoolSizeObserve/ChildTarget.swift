import CPoolSizeSys
import Foundation

/// A command `observe -- CMD ARGS…` starts as its target. Being our child it can be read
/// under Yama's ptrace_scope 1, which forbids reading anyone else's syscalls. It leads a
/// process group of its own and dies with the thread that started it (PR_SET_PDEATHSIG), so
/// nothing it starts outlives the observation even when observe itself is killed; `stop` ends
/// the group with SIGTERM (a target may print its own figures on it), then SIGKILL.
package final class ChildTarget: @unchecked Sendable {
    /// The child's process id (and process group id).
    package let pid: Int32
    private let outputURL: URL
    private let errorURL: URL
    private let lock = NSLock()
    private var status: Int32?

    /// Why a command could not be started.
    package enum Failure: Error, Equatable, Sendable {
        /// Not on PATH, not executable, or a directory.
        case notFound(program: String, reason: String)
        /// The spawn failed; the errno's text.
        case cannotStart(program: String, reason: String)
    }

    /// Starts `arguments` (the program resolved on `PATH` unless it holds a `/`). Call from the
    /// thread that lives as long as the observation (the main thread): the child's death signal
    /// is tied to it.
    package init(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Failure)
    {
        guard let program = arguments.first else { throw .notFound(program: "", reason: "no command after --") }
        let executable = try Self.resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        outputURL = directory.appendingPathComponent("poolsize-observe-\(id).out")
        errorURL = directory.appendingPathComponent("poolsize-observe-\(id).err")
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: Int32 = 0
        let result = poolsize_spawn_group(executable, argv, environ, outputURL.path, errorURL.path, &child)
        guard result == 0 else { throw .cannotStart(program: program, reason: String(cString: strerror(result))) }
        pid = child
    }

    deinit {
        _ = stop(graceSeconds: 0)
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// Whether the child has exited (it is reaped then).
    package var hasExited: Bool {
        lock.lock()
        defer { lock.unlock() }
        if status != nil { return true }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        return status != nil
    }

    /// Ends the child's process group: SIGTERM, up to `graceSeconds` for it to exit, then
    /// SIGKILL; reaps the child. Returns its wait status. Safe to call more than once.
    @discardableResult
    package func stop(graceSeconds: Double) -> Int32 {
        if !hasExited {
            kill(-pid, SIGTERM)
            let deadline = Date().addingTimeInterval(graceSeconds)
            while !hasExited && Date() < deadline { usleep(10_000) }
        }
        // Whatever else is left in the group goes too (ESRCH when nothing is).
        kill(-pid, SIGKILL)
        lock.lock()
        defer { lock.unlock() }
        if status == nil {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
        }
        return status ?? 0
    }

    /// What the child wrote on stdout and on stderr so far.
    package var output: (standardOutput: String, standardError: String) {
        let text = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return (text(outputURL), text(errorURL))
    }

    static func resolve(_ program: String, path: String) throws(Failure) -> String {
        func runnable(_ candidate: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
                && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate)
        }
        if program.contains("/") {
            guard runnable(program) else { throw .notFound(program: program, reason: "not an executable file") }
            return program
        }
        for directory in path.split(separator: ":") where runnable("\(directory)/\(program)") {
            return "\(directory)/\(program)"
        }
        throw .notFound(program: program, reason: "no such program on PATH")
    }
}
