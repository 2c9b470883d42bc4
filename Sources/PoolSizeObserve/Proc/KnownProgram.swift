/// A program or runtime observe knows something about beyond what /proc shows: the runtimes
/// that run one thread of their language at a time (a global interpreter lock caps a process at
/// one core of that language, so N's parallelism is 1, not the cores), and servers whose own
/// views tell apart the waits /proc cannot (docs/platform.md). Recognised from the executable,
/// the shared libraries mapped, or, when those are unreadable, the process title.
package struct KnownProgram: Equatable, Sendable, Codable {
    /// The programs recognised.
    package enum Kind: String, CaseIterable, Sendable, Codable {
        /// CPython with its global interpreter lock: every CPython before 3.13, and later ones
        /// unless built free-threaded.
        case cpython
        /// CPython built without the lock (PEP 703, `python3.13t`, `libpython3.13t.so`).
        case cpythonFreeThreaded
        /// Ruby's reference interpreter (CRuby, MRI), whose global VM lock runs one Ruby
        /// thread at a time.
        case ruby
        /// PostgreSQL: one backend process per connection; pg_stat_activity's wait events tell
        /// a backend waiting for its client from one waiting inside a query.
        case postgres
    }

    /// Which program.
    package var kind: Kind
    /// The version its file name carries (`3.11`), when it carries one.
    package var version: String?
    /// What it was recognised from: the executable's or library's file name, or `title`.
    package var evidence: String

    /// A recognised program.
    package init(kind: Kind, version: String? = nil, evidence: String) {
        self.kind = kind
        self.version = version
        self.evidence = evidence
    }

    /// Whether the runtime runs one thread of its language at a time.
    package var hasInterpreterLock: Bool { kind == .cpython || kind == .ruby }

    /// The runtime as a server sweep records it when it has an interpreter lock
    /// (`ServerFigures.interpreterLock`): its kind and version, `cpython 3.11`, `ruby`; nil
    /// for a runtime without the lock.
    package var lockName: String? {
        guard hasInterpreterLock else { return nil }
        return kind.rawValue + (version.map { " " + $0 } ?? "")
    }

    /// The runtime a recorded `lockName` names; nil for any text `lockName` does not write.
    package init?(lockName: String) {
        let words = lockName.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(words.count), let kind = Kind(rawValue: String(words[0])),
            words.count == 1 || (!words[1].isEmpty && words[1].allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        self.init(kind: kind, version: words.count == 2 ? String(words[1]) : nil, evidence: "trials.csv")
        guard hasInterpreterLock else { return nil }
    }

    /// The program behind an executable path, the shared objects it maps and its title (a
    /// fallback for the executable when /proc/PID/exe is unreadable); nil for any other.
    package static func recognise(executable: String?, sharedObjects: [String], title: String) -> KnownProgram? {
        if let executable, let found = fromFileName(baseName(executable)) {
            return adjusted(found, title: title)
        }
        for path in sharedObjects {
            if let found = fromLibrary(baseName(path)) { return adjusted(found, title: title) }
        }
        if executable == nil {
            if title.hasPrefix("postgres: ") { return KnownProgram(kind: .postgres, evidence: "title") }
            let program = title.split(separator: " ").first.map { baseName(String($0)) } ?? ""
            if var found = fromFileName(program) {
                found.evidence = "title"
                return adjusted(found, title: title)
            }
        }
        return nil
    }

    /// A free-threaded CPython started with `-X gil=1` has its lock back.
    static func adjusted(_ program: KnownProgram, title: String) -> KnownProgram {
        guard program.kind == .cpythonFreeThreaded else { return program }
        let words = title.split(separator: " ")
        let enabled =
            words.contains("-Xgil=1") || zip(words, words.dropFirst()).contains { $0 == "-X" && $1 == "gil=1" }
        return enabled ? KnownProgram(kind: .cpython, version: program.version, evidence: program.evidence) : program
    }

    /// `python3.11`, `python3.13t`, `python3`, `ruby`, `ruby3.2`, `postgres`, `postmaster`.
    static func fromFileName(_ name: String) -> KnownProgram? {
        if name == "postgres" || name == "postmaster" { return KnownProgram(kind: .postgres, evidence: name) }
        if name.hasPrefix("python"), let parsed = parseVersion(name.dropFirst("python".count)) {
            return KnownProgram(
                kind: parsed.threaded ? .cpythonFreeThreaded : .cpython, version: parsed.version, evidence: name)
        }
        if name.hasPrefix("ruby"), let parsed = parseVersion(name.dropFirst("ruby".count)), !parsed.threaded {
            return KnownProgram(kind: .ruby, version: parsed.version, evidence: name)
        }
        return nil
    }

    /// `libpython3.11.so.1.0`, `libpython3.13t.so`, `libruby.so.3.2`, `libruby-3.1.so.3.1`.
    static func fromLibrary(_ name: String) -> KnownProgram? {
        if name.hasPrefix("libpython"), let so = name.range(of: ".so") {
            let stem = name[name.index(name.startIndex, offsetBy: "libpython".count)..<so.lowerBound]
            // libpython3.so is the stable ABI's forwarder, mapped beside the real library.
            guard stem.contains("."), let parsed = parseVersion(stem) else { return nil }
            return KnownProgram(
                kind: parsed.threaded ? .cpythonFreeThreaded : .cpython, version: parsed.version, evidence: name)
        }
        if name.hasPrefix("libruby.so") || name.hasPrefix("libruby-") {
            var version: String?
            if name.hasPrefix("libruby-"), let so = name.range(of: ".so") {
                version = String(name[name.index(name.startIndex, offsetBy: "libruby-".count)..<so.lowerBound])
            } else {
                let tail = name.dropFirst("libruby.so.".count)
                version = tail.isEmpty ? nil : tail.split(separator: ".").prefix(2).joined(separator: ".")
            }
            return KnownProgram(kind: .ruby, version: version, evidence: name)
        }
        return nil
    }

    /// `3.11` → ("3.11", false); `3.13t` → ("3.13", true); `` → (nil, false); nil for anything
    /// else (`python-config`, `python3.11-config`).
    static func parseVersion(_ text: Substring) -> (version: String?, threaded: Bool)? {
        var digits = text
        var threaded = false
        if digits.hasSuffix("t") {
            threaded = true
            digits = digits.dropLast()
        }
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), digits.first != ".",
            digits.last != "."
        else { return nil }
        if digits.isEmpty { return threaded ? nil : (nil, false) }
        return (String(digits), threaded)
    }

    static func baseName(_ path: String) -> String {
        var name = path
        // /proc/PID/exe of a replaced executable reads `/usr/bin/python3.11 (deleted)`.
        if name.hasSuffix(" (deleted)") { name.removeLast(" (deleted)".count) }
        return name.split(separator: "/").last.map(String.init) ?? name
    }
}
