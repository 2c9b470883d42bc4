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
}
