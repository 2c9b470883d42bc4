/// The five shares of a pool's thread time at one point, each a fraction (they sum to 1).
package struct ShareFractions: Equatable, Sendable, Codable {
    /// On a CPU (C).
    package var running: Double
    /// Waiting for a CPU (Q).
    package var runnable: Double
    /// Blocked in known IO.
    package var blockedIO: Double
    /// Parked where work and idleness look the same.
    package var ambiguous: Double
    /// Waiting for work.
    package var idle: Double

    /// Fractions by kind; a kind left out is 0.
    package init(_ fractions: [ShareKind: Double]) {
        running = fractions[.running] ?? 0
        runnable = fractions[.runnable] ?? 0
        blockedIO = fractions[.blockedIO] ?? 0
        ambiguous = fractions[.ambiguous] ?? 0
        idle = fractions[.idle] ?? 0
    }

    /// Keys as a snake_cased file reads back (`blocked_io` → `blockedIo`).
    enum CodingKeys: String, CodingKey {
        case running, runnable, ambiguous, idle
        case blockedIO = "blockedIo"
    }

    /// The fraction of `kind`.
    package subscript(kind: ShareKind) -> Double {
        switch kind {
        case .running: running
        case .runnable: runnable
        case .blockedIO: blockedIO
        case .ambiguous: ambiguous
        case .idle: idle
        }
    }
}
