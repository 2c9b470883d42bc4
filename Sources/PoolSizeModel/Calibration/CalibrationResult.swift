import PoolSizeStats

/// One operation's calibration: the per-operation value of every measured round and their summary.
package struct CalibrationMeasurement: Equatable, Sendable, Codable {
    package var id: String
    package var operation: String
    package var unit: CostUnit
    /// How the value was obtained (loop size, what is subtracted, what a round reports).
    package var method: String
    /// Per-operation value of each measured round, in `unit`.
    package var rounds: [Double]
    /// Median of `rounds`: the headline value.
    package var median: Double
    /// Summary of `rounds` (mean, SD, 95% t-interval of the mean, min, max); nil when empty.
    package var summary: Summary?
    /// Apple's reference value in `unit`, and `median / reference`.
    package var reference: Double?
    package var ratio: Double?
    /// The figure measured earlier on this project's machines, in `unit`.
    package var earlierReference: Double?

    package init(_ operation: CalibrationOperation, rounds: [Double], method: String) {
        self.id = operation.id
        self.operation = operation.label
        self.unit = operation.unit
        self.method = method
        self.rounds = rounds
        self.summary = Summary(rounds)
        self.median = summary?.median ?? .nan
        self.reference = operation.appleReference
        self.earlierReference = operation.earlierReference
        self.ratio = reference.map { median / $0 }
    }
}

/// Everything `poolsize calibrate` reports.
package struct CalibrationResult: Equatable, Sendable, Codable {
    /// Measured rounds per operation (after one discarded warm-up round).
    package var rounds: Int
    package var measurements: [CalibrationMeasurement]
    /// Caveats that apply to the whole run (privileges, pinning that failed, …).
    package var notes: [String]
    package var machine: MachineFacts?
    /// Where the CSV was written, when it was.
    package var csvPath: String?

    package init(
        rounds: Int, measurements: [CalibrationMeasurement], notes: [String] = [], machine: MachineFacts? = nil,
        csvPath: String? = nil
    ) {
        self.rounds = rounds
        self.measurements = measurements
        self.notes = notes
        self.machine = machine
        self.csvPath = csvPath
    }

    /// Where the reference columns come from, for the table's footer and the JSON.
    package static let appleSource =
        "Threading Programming Guide, \"Thread Costs\" table and \"Synchronization\" costs (2 GHz Core Duo, OS X 10.5)"
    package static let earlierSource = "figures measured earlier on this project's Linux machines"
}
