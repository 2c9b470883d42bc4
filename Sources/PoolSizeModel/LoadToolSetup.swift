/// A sweep of the user's own load tool run alone as its plan records it: the command whose
/// `{size}` is the trial's size (the tool's own concurrency, so no server is started) and how its
/// output is read. What machine.json keeps, what `--resume` compares and what the report shows,
/// so it holds no secret (a password in the command is masked).
package struct LoadToolSetup: Sendable, Equatable, Codable {
    /// The tool's command line, `{size}` unfilled, secrets masked.
    package var command: String
    /// How its figures are read: `wrk`, `pgbench`, or each regular expression given.
    package var parse: [String]

    /// A setup as recorded.
    package init(command: String, parse: [String]) {
        self.command = command
        self.parse = parse
    }
}
