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
    /// True when the last total was below the first: the counter restarted (or wrapped) in
    /// between, so no task rate was taken from it. Nil in observations written before it was
    /// recorded.
    package var wentDown: Bool?

    /// A count.
    package init(command: String, first: Double, last: Double, seconds: Double) {
        self.command = command
        self.first = first
        self.last = last
        self.seconds = seconds
        wentDown = last < first
    }

    /// λ: tasks per second between the reads; 0 when the total did not rise.
    package var perSecond: Double { seconds > 0 && last > first ? (last - first) / seconds : 0 }
}
