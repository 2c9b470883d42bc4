/// What the nice probe saw: the nice value a block ran at, per QoS tier and queue kind.
///
/// libdispatch on Linux sets a worker's nice from the tier it serves (docs/platform.md: user-interactive
/// −2, folded into user-initiated; user-initiated −2; default 0; utility +2; background +10).
/// Lowering nice needs CAP_SYS_NICE, so an unprivileged process sees 0 for the two top tiers:
/// docs/platform.md states that caveat, so the claim still holds there.
package struct NiceObservation: Equatable, Sendable, Codable, ProbeObservation {
    package enum QueueKind: String, CaseIterable, Codable, Sendable {
        /// `DispatchQueue(label:qos:)`: a serial queue of the tier.
        case serial
        /// `DispatchQueue.global(qos:)`.
        case global
    }

    package struct Sample: Equatable, Sendable, Codable {
        package var tier: QoSTier
        package var queue: QueueKind
        /// nil when the block did not run within the probe's timeout.
        package var nice: Int?

        package init(tier: QoSTier, queue: QueueKind, nice: Int?) {
            self.tier = tier
            self.queue = queue
            self.nice = nice
        }
    }

    package var samples: [Sample]
    /// Whether a thread of this process could lower its nice below 0 (root or CAP_SYS_NICE).
    package var canLowerNice: Bool
    /// The nice the probing thread itself ran at (0 unless started under `nice`).
    package var baseNice: Int

    package init(samples: [Sample], canLowerNice: Bool, baseNice: Int = 0) {
        self.samples = samples
        self.canLowerNice = canLowerNice
        self.baseNice = baseNice
    }

    /// Samples whose tier asks for a negative nice that the process was not allowed to set.
    func blockedByPrivilege(_ sample: Sample) -> Bool {
        !canLowerNice && sample.tier.requestedNice < 0 && sample.nice == baseNice
    }

    package func result() -> ProbeResult {
        let measurements = samples.map { s in
            ProbeMeasurement(
                "\(s.queue.rawValue) \(s.tier.rawValue)", expected: Self.signed(Int(s.tier.requestedNice)),
                observed: s.nice.map(Self.signed) ?? "no run")
        }
        let expected = QoSTier.allCases.map { "\($0.rawValue) \(Self.signed(Int($0.requestedNice)))" }.joined(
            separator: ", ")
        let observed =
            NiceObservation.QueueKind.allCases.compactMap { kind -> String? in
                let row = samples.filter { $0.queue == kind }
                guard !row.isEmpty else { return nil }
                return "\(kind.rawValue) " + row.map { $0.nice.map(Self.signed) ?? "?" }.joined(separator: " ")
            }.joined(separator: "; ") + (baseNice != 0 ? " (probing thread at \(Self.signed(baseNice)))" : "")

        let missing = samples.filter { $0.nice == nil }
        let wrong = samples.filter {
            $0.nice != nil && $0.nice != Int($0.tier.requestedNice) && !blockedByPrivilege($0)
        }
        let blocked = samples.filter(blockedByPrivilege)
        let verdict: Verdict
        var explanation: String
        if samples.isEmpty {
            return ProbeResult(
                name: .nice, expected: expected, observed: "nothing measured", verdict: .cannotTell,
                explanation: "no queue ran a block", measurements: [])
        } else if !wrong.isEmpty {
            verdict = .differs
            explanation = wrong.prefix(3).map {
                "\($0.queue.rawValue) \($0.tier.rawValue) ran at \(Self.signed($0.nice!)), not \(Self.signed(Int($0.tier.requestedNice)))"
            }.joined(separator: "; ")
            if wrong.count > 3 { explanation += "; \(wrong.count - 3) more" }
            if canLowerNice && wrong.contains(where: { $0.tier.requestedNice < 0 }) {
                explanation += " (although this process may lower nice)"
            }
        } else if !missing.isEmpty {
            verdict = .cannotTell
            explanation =
                "\(missing.count) queue(s) did not run the probe block in time: "
                + missing.map { "\($0.queue.rawValue) \($0.tier.rawValue)" }.joined(separator: ", ")
        } else if !blocked.isEmpty {
            verdict = .holds
            explanation =
                "tiers at or above 0 ran at their nice; the negative nice of \(Set(blocked.map(\.tier.rawValue)).sorted().joined(separator: " and ")) did not take effect because this process may not lower nice (needs CAP_SYS_NICE), as docs/platform.md says"
        } else {
            verdict = .holds
            explanation =
                "every tier ran at its nice on both queue kinds"
                + (canLowerNice ? " (this process may lower nice, so the negative tiers took effect)" : "")
        }
        if baseNice != 0 {
            explanation +=
                "; the probing thread runs at nice \(Self.signed(baseNice)), which shifts what a worker can get"
        }
        return ProbeResult(
            name: .nice, expected: expected, observed: observed, verdict: verdict, explanation: explanation,
            measurements: measurements)
    }

    /// `+2`, `-2`, `0`.
    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : String(value) }
}
