import Foundation

/// What every way of starting a program shares: finding it, its argument vector for C, and the
/// stop that gives it a grace (`ChildProcessRunner.run`, `GuardedChild`'s `ServerProcess` and
/// `ChildTarget`, `--exec`'s `CommandSource`).
extension ChildProcessRunner {
    /// Why a program named to run is none (`locate`).
    package struct LocateFailure: Error, Equatable, Sendable {
        /// Not an executable file, or not on PATH.
        package var reason: String
    }

    /// The stop a long-running child gets: `signal` SIGTERM, up to `graceSeconds` for `ended` to
    /// say all is gone, then `signal` SIGKILL for whatever is left.
    package static func terminate(
        graceSeconds: Double, first: Int32 = SIGTERM, signal: (Int32) -> Void, ended: () -> Bool
    ) {
        signal(first)
        let deadline = Date().addingTimeInterval(graceSeconds)
        while !ended() && Date() < deadline { usleep(10_000) }
        signal(SIGKILL)
    }

    /// Where `program` is: itself when it holds a `/`, else the first executable file of that
    /// name in `path`'s directories; or why it is none.
    package static func locate(_ program: String, path: String) -> Result<String, LocateFailure> {
        func runnable(_ candidate: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
                && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: candidate)
        }
        if program.contains("/") {
            return runnable(program) ? .success(program) : .failure(LocateFailure(reason: "not an executable file"))
        }
        for directory in path.split(separator: ":") where runnable("\(directory)/\(program)") {
            return .success("\(directory)/\(program)")
        }
        return .failure(LocateFailure(reason: "no such program on PATH"))
    }

    /// Runs `body` on `strings` as C wants a vector of them: NUL-terminated copies and a nil at
    /// the end, freed when `body` returns.
    package static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
