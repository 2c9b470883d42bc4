/// One observed process, parsed from `RawProcessTexts`: its title for grouping, and the program
/// or runtime recognised from its executable and libraries.
package struct ProcessFacts: Equatable, Sendable {
    /// The process.
    package var pid: Int32
    /// Its parent; nil when unread.
    package var parentPID: Int32?
    /// The process title: the command line's words joined by spaces, the padding some servers
    /// leave after a rewritten title dropped (`postgres: app db 127.0.0.1(5000) idle`).
    package var title: String
    /// The executable's path; nil when unreadable.
    package var executable: String?
    /// The program or runtime recognised, nil for any other.
    package var program: KnownProgram?

    /// Parses what was read.
    package init(_ raw: RawProcessTexts) {
        pid = raw.pid
        parentPID = raw.parentPID
        title = Self.title(raw.cmdline)
        executable = raw.executable
        program = KnownProgram.recognise(
            executable: raw.executable, sharedObjects: raw.sharedObjects ?? [], title: title)
    }

    /// A cmdline's arguments joined by spaces, without the NULs and spaces a rewritten title
    /// pads the old argument area with.
    package static func title(_ cmdline: String) -> String {
        let words = cmdline.split(separator: "\0", omittingEmptySubsequences: true)
        var text = words.joined(separator: " ")
        while let last = text.last, last == " " || last == "\n" || last == "\t" { text.removeLast() }
        return text
    }
}
