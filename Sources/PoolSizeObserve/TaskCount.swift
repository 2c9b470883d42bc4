/// What `observe --counter CMD` read: the running total of tasks the command printed as the
/// observation started and as it ended, and the seconds between the two reads.
package struct TaskCount: Equatable, Sendable, Codable {
    /// The command, as typed.
    package var command: String
    /// The total at the start.
    package var first: Double
    /// The total at the end.
    package var last: Double
    /// Seconds between the two reads (the middles of the two runs of the command).
    package var seconds: Double

    /// A count.
    package init(command: String, first: Double, last: Double, seconds: Double) {
        self.command = command
        self.first = first
        self.last = last
        self.seconds = seconds
    }

    /// λ: tasks per second between the reads.
    package var perSecond: Double { seconds > 0 ? (last - first) / seconds : 0 }
}
