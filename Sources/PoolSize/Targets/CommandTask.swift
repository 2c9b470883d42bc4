import PoolSizeModel

/// A command run as each task (`--exec`): its text, split into words as a shell would.
package struct CommandTask: Sendable, Equatable, Codable {
    /// The command's text.
    package var command: String
    /// The same command with its work left out, whose start is measured beside it.
    package var baseline: String?
    /// Where each task's output is kept; discarded when nil.
    package var outputDirectory: String?

    /// `command`, with no baseline and its output discarded.
    package init(command: String) {
        self.command = command
    }

    /// What a run records: the commands with their credentials masked, and whether any was.
    package var recorded: (task: CommandTask, withheld: Bool) {
        masking { copy in
            copy.command = Secrets.commandText(copy.command)
            copy.baseline = copy.baseline.map(Secrets.commandText)
        }
    }
}
