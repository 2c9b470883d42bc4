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

    /// Figures as measured.
    package init(
        errorsBySQLState: [String: Int] = [:], backendCPUSeconds: Double? = nil, waitSamples: [WaitClass: Int] = [:],
        snapshots: Int = 0
    ) {
        self.errorsBySQLState = errorsBySQLState
        self.backendCPUSeconds = backendCPUSeconds
        self.waitSamples = waitSamples
        self.snapshots = snapshots
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

    /// Keys the figures are encoded with; the wait samples under their class names.
    enum CodingKeys: String, CodingKey { case errorsBySQLState, backendCPUSeconds, waitSamples, snapshots }

    /// Figures as `encode(to:)` writes them.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        errorsBySQLState = try c.decode([String: Int].self, forKey: .errorsBySQLState)
        backendCPUSeconds = try c.decodeIfPresent(Double.self, forKey: .backendCPUSeconds)
        let named = try c.decode([String: Int].self, forKey: .waitSamples)
        var samples: [WaitClass: Int] = [:]
        for (name, count) in named {
            guard let kind = WaitClass(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .waitSamples, in: c, debugDescription: "unknown wait class '\(name)'")
            }
            samples[kind] = count
        }
        waitSamples = samples
        snapshots = try c.decode(Int.self, forKey: .snapshots)
    }

    /// The figures, the wait samples as an object keyed by class name.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(errorsBySQLState, forKey: .errorsBySQLState)
        try c.encodeIfPresent(backendCPUSeconds, forKey: .backendCPUSeconds)
        try c.encode(
            Dictionary(uniqueKeysWithValues: waitSamples.map { ($0.key.rawValue, $0.value) }), forKey: .waitSamples)
        try c.encode(snapshots, forKey: .snapshots)
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
        if let mine = backendCPUSeconds, let theirs = other.backendCPUSeconds {
            sum.backendCPUSeconds = mine + theirs
        } else {
            sum.backendCPUSeconds = nil
        }
        return sum
    }
}
