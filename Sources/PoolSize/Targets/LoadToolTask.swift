import PoolSizeModel

/// The user's own load tool (`--load`), run once per trial with `{size}` (and a server's
/// `{port}`), its figures read from its output as `parse` says.
package struct LoadToolTask: Sendable, Equatable, Codable {
    /// The tool's command.
    package var command: String
    /// `wrk`, `pgbench`, or regular expressions with named groups.
    package var parse: [String]

    /// `command`, read as `parse` says.
    package init(command: String, parse: [String]) {
        self.command = command
        self.parse = parse
    }

    /// What a run records: the command with its credentials masked, and whether any was.
    package var recorded: (task: LoadToolTask, withheld: Bool) {
        masking { copy in
            copy.command = Secrets.commandText(copy.command)
            copy.parse = copy.parse.map(Secrets.commandText)
        }
    }
}
