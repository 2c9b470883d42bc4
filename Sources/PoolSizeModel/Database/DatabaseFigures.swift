/// What a trial saw of the database behind its connections, over the trial's window (the one
/// its throughput is counted in): the transactions the server failed by SQLSTATE, the CPU its
/// backends used when the server runs on this machine, and what the backends were doing at
/// each sample of `pg_stat_activity` (`WaitClass`).
package struct DatabaseFigures: Equatable, Sendable, Codable {
    /// Failed transactions by SQLSTATE (`40001`, `40P01`); `none` for a failure without one
    /// (the connection broke).
    package var errorsBySQLState: [String: Int]
    /// CPU (user + system) the sweep's backends used in the window, seconds; nil when the server
    /// is not on this machine, whose /proc cannot see it.
    package var backendCPUSeconds: Double?
    /// Samples of the sweep's backends in each class, one per backend per snapshot (only the
    /// backends that ran a command in the window: a connection left idle from a larger trial is
    /// not this trial's).
    package var waitSamples: [WaitClass: Int]
    /// Snapshots of `pg_stat_activity` taken in the window.
    package var snapshots: Int
    /// The most backends one snapshot saw (idle ones included); nil when not counted (a file
    /// written before it).
    package var peakConnections: Int?

    /// Figures as measured.
    package init(
        errorsBySQLState: [String: Int] = [:], backendCPUSeconds: Double? = nil, waitSamples: [WaitClass: Int] = [:],
        snapshots: Int = 0, peakConnections: Int? = nil
    ) {
        (self.errorsBySQLState, self.backendCPUSeconds) = (errorsBySQLState, backendCPUSeconds)
        (self.waitSamples, self.snapshots, self.peakConnections) = (waitSamples, snapshots, peakConnections)
    }

    /// The mean number of backends in `kind` over the snapshots; 0 without snapshots.
    package func meanConnections(_ kind: WaitClass) -> Double {
        snapshots > 0 ? Double(waitSamples[kind] ?? 0) / Double(snapshots) : 0
    }

    /// The SQLSTATE key of a failure without one.
    package static let noSQLState = "none"

    /// Backend samples in all classes.
    package var sampleCount: Int { waitSamples.values.reduce(0, +) }

    /// The share of the backends' samples in `kind`; 0 without samples.
    package func share(_ kind: WaitClass) -> Double {
        let all = sampleCount
        return all > 0 ? Double(waitSamples[kind] ?? 0) / Double(all) : 0
    }

    /// The share of the samples in `kind` among those of backends at work: all but `client`
    /// (an idle connection, or one waiting for its client's next command); 0 without any.
    package func workingShare(_ kind: WaitClass) -> Double {
        let working = sampleCount - (waitSamples[.client] ?? 0)
        return working > 0 && kind != .client ? Double(waitSamples[kind] ?? 0) / Double(working) : 0
    }

    /// The class the backends at work (`workingShare`) spent most samples in, ties going to the
    /// first in `WaitClass.allCases`; nil when none was at work.
    package var topWorkingWait: WaitClass? {
        let top = WaitClass.allCases.filter { $0 != .client }.max { workingShare($0) < workingShare($1) }
        guard let top, workingShare(top) > 0 else { return nil }
        return top
    }

    /// The class most samples fell in, ties going to the first in `WaitClass.allCases` (a lock
    /// before the CPU); nil without samples.
    package var dominant: WaitClass? {
        guard sampleCount > 0 else { return nil }
        var best = WaitClass.allCases[0]
        for kind in WaitClass.allCases where share(kind) > share(best) { best = kind }
        return best
    }

    /// Failed transactions of all SQLSTATEs.
    package var failedTransactions: Int { errorsBySQLState.values.reduce(0, +) }

    /// The errors as one cell, most frequent first, then by SQLSTATE: `40001:12 40P01:3`; empty
    /// when none failed.
    package var errorsText: String {
        errorsBySQLState.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.key):\($0.value)" }.joined(separator: " ")
    }

    /// Reads `errorsText` back; nil when a part is not `STATE:COUNT`.
    package static func errors(from text: String) -> [String: Int]? {
        var errors: [String: Int] = [:]
        for part in text.split(separator: " ") {
            let pieces = part.split(separator: ":")
            guard pieces.count == 2, let count = Int(pieces[1]), count >= 0, FiniteNumber.isWhole(count),
                !pieces[0].isEmpty
            else { return nil }
            errors[String(pieces[0]), default: 0] += count
        }
        return errors
    }

}

extension DatabaseFigures {
    /// These figures and `other`'s summed: two windows' errors, CPU and samples as one (the
    /// CPU known only when both knew it).
    package func adding(_ other: DatabaseFigures) -> DatabaseFigures {
        var sum = self
        sum.errorsBySQLState.merge(other.errorsBySQLState, uniquingKeysWith: +)
        sum.waitSamples.merge(other.waitSamples, uniquingKeysWith: +)
        sum.snapshots += other.snapshots
        if let theirs = other.peakConnections { sum.peakConnections = max(peakConnections ?? 0, theirs) }
        if let mine = backendCPUSeconds, let theirs = other.backendCPUSeconds {
            sum.backendCPUSeconds = mine + theirs
        } else {
            sum.backendCPUSeconds = nil
        }
        return sum
    }
}
