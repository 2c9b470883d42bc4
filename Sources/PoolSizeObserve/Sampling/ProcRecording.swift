import Foundation

/// An observation as read: the header and every sweep's raw /proc texts. Golden tests replay
/// recordings of real processes (Tests/Fixtures/observe/) through the same parsers and estimator
/// as a live observation, without a live target.
package struct ProcRecording: Equatable, Sendable, Codable {
    /// The target, clock, cores and cost.
    package var header: ObservationHeader
    /// The sweeps, oldest first.
    package var sweeps: [RawSweep]
    /// What was read of each process once (title, executable, libraries); nil in a recording
    /// made before they were kept.
    package var processes: [RawProcessTexts]?

    /// The recording parsed: what the estimator takes.
    package var record: ObservationRecord {
        ObservationRecord(
            header: header, sweeps: sweeps.map { SampleSweep($0, clockTicksPerSecond: header.clockTicksPerSecond) },
            processes: (processes ?? []).map(ProcessFacts.init))
    }

    /// Stable JSON, one sweep per line, so a fixture's diff reads sweep by sweep.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = "{\"header\":"
        text += String(decoding: (try? encoder.encode(header)) ?? Data("{}".utf8), as: UTF8.self)
        text += ",\n\"sweeps\":[\n"
        text += sweeps.map { String(decoding: (try? encoder.encode($0)) ?? Data("{}".utf8), as: UTF8.self) }.joined(
            separator: ",\n")
        text += "\n]"
        if let processes {
            text += ",\n\"processes\":[\n"
            text += processes.map { String(decoding: (try? encoder.encode($0)) ?? Data("{}".utf8), as: UTF8.self) }
                .joined(separator: ",\n")
            text += "\n]"
        }
        text += "}\n"
        return Data(text.utf8)
    }

    /// Reads a recording written by `encoded()`.
    package static func decode(_ data: Data) throws -> ProcRecording {
        try JSONDecoder().decode(ProcRecording.self, from: data)
    }
}
