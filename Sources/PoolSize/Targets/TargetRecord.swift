import PoolSizeModel
import PoolSizeOutput

/// What a run directory's target.json holds: the sweep's target with every credential masked,
/// and whether one was, so that a resume from the record alone knows it must be given again.
package struct TargetRecord: Sendable, Equatable, Codable {
    /// The target as recorded.
    package var target: Sweep.Target
    /// Whether a credential was masked (a header, a URL's secret, a password, a command's token).
    package var withheld: Bool

    /// The record of `target`.
    package init(_ target: Sweep.Target) {
        (self.target, withheld) = target.recorded
    }

    /// The record in `directory`, nil when the run has none (recorded before poolsize kept it).
    package static func load(_ directory: RunDirectory) throws(PoolSizeError) -> TargetRecord? {
        try directory.decode(TargetRecord.self, .target)
    }
}
