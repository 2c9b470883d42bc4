import Foundation

/// The signal that stops a server poolsize started, between sizes and at the end
/// (`stopSignal`): SIGTERM unless the user names another. Many servers take SIGTERM as a
/// graceful stop and wait out something of their own first (gunicorn's gthread worker finishes
/// a poll), where SIGINT or SIGQUIT is their quick one; no
/// request is in flight by then, so the quick stop loses nothing. Sent to the server's process
/// group and every process of its session; those left after the grace period get SIGKILL.
package struct ServerStopSignal: Sendable, Equatable {
    /// The signal's name without `SIG`: `TERM`.
    package let name: String
    /// Its number on this system.
    package let number: Int32

    /// The signals a server may be stopped with, by name.
    static let accepted: [(name: String, number: Int32)] = [
        ("TERM", SIGTERM), ("INT", SIGINT), ("QUIT", SIGQUIT), ("HUP", SIGHUP), ("USR1", SIGUSR1),
        ("USR2", SIGUSR2), ("KILL", SIGKILL),
    ]

    /// SIGTERM, the default.
    package static let term = ServerStopSignal(name: "TERM", number: SIGTERM)

    private init(name: String, number: Int32) {
        self.name = name
        self.number = number
    }

    /// The signal `text` names (`INT`, `SIGINT`, `int`); one line naming `stopSignal` and the
    /// names it takes otherwise.
    package init(_ text: String) throws(PoolSizeError) {
        var word = text.trimmingCharacters(in: .whitespaces).uppercased()
        if word.hasPrefix("SIG") { word.removeFirst(3) }
        guard let found = Self.accepted.first(where: { $0.name == word }) else {
            let names = Self.accepted.map(\.name)
            throw .invalidParameter(
                .stopSignal,
                message:
                    "'\(TerminalText.escape(text))' is no signal a server is stopped with; give one of \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "") (SIGINT and INT are the same)"
            )
        }
        self.init(name: found.name, number: found.number)
    }
}
