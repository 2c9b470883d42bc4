import PoolSizeModel

/// Whether a command's C is mostly its program starting (`ProcessStart`, measured once): the
/// curve then sizes how many processes the machine can start at once, not the work the command
/// asks for (a 0.05 ms query behind 26 ms of client start-up). Decided here, worded in Output.
package struct ProcessStartShare: Equatable, Sendable {
    /// From this share of C on, start-up is "most of" a task.
    package static let mostly = 0.5

    /// The start measured alone.
    package let start: ProcessStart
    /// A task's C at low load, µs.
    package let cpuMicrosecondsPerTask: Double

    /// The start's share of a task's C (over 1 when a start alone cost more than a mean task).
    package var share: Double { start.cpuMicroseconds / cpuMicrosecondsPerTask }

    /// The finding for a low-load estimate: nil without a measured start, without C, or when
    /// the start is under `mostly` of C.
    package static func finding(_ lowLoad: LowLoadEstimate) -> ProcessStartShare? {
        guard let start = lowLoad.processStart, lowLoad.cpuMicrosecondsPerTask > 0 else { return nil }
        let found = ProcessStartShare(start: start, cpuMicrosecondsPerTask: lowLoad.cpuMicrosecondsPerTask)
        return found.share >= mostly ? found : nil
    }

    /// Programs whose own start-up, past the loader's, is heavy and runs in every task: clients
    /// that connect to a server, and interpreters that load a runtime. Matched on the
    /// executable's name, a version suffix aside (`python3.11`).
    package static let heavyStarters = [
        "psql", "mysql", "mariadb", "redis-cli", "mongosh", "mongo", "sqlcmd", "clickhouse-client", "curl", "wget",
        "python", "python3", "ruby", "node", "java", "perl", "php",
    ]

    /// The program's name when the start was measured by the loader alone, came under `mostly`,
    /// and the program is one whose own start-up the loader's leaves out (`heavyStarters`): psql's
    /// connection, for one, is in every task's C and in no loader's start. nil otherwise.
    package static func unmeasuredStartUp(_ lowLoad: LowLoadEstimate) -> String? {
        guard let start = lowLoad.processStart, start.baseline == nil, lowLoad.cpuMicrosecondsPerTask > 0,
            start.cpuMicroseconds / lowLoad.cpuMicrosecondsPerTask < mostly
        else { return nil }
        let name = String(start.program.split(separator: "/").last ?? "")
        let stem = name.prefix { !$0.isNumber && $0 != "." }
        let known = heavyStarters.contains(name) || heavyStarters.contains(String(stem))
        return known ? name : nil
    }
}
