import PoolSizeStats

/// One operation's calibration: the per-operation value of every measured round and their summary.
public struct CalibrationMeasurement: Equatable, Sendable, Codable {
    public var id: String
    public var operation: String
    public var unit: CostUnit
    /// How the value was obtained (loop size, what is subtracted, what a round reports).
    public var method: String
    /// Per-operation value of each measured round, in `unit`.
    public var rounds: [Double]
    /// Median of `rounds`: the headline value.
    public var median: Double
    /// Summary of `rounds` (mean, SD, 95% t-interval of the mean, min, max); nil when empty.
    public var summary: Summary?
    /// Apple's reference value in `unit`, and `median / reference`.
    public var reference: Double?
    public var ratio: Double?
    /// The figure measured earlier on this project's machines, in `unit`.
    public var earlierReference: Double?

    public init(_ operation: CalibrationOperation, rounds: [Double], method: String) {
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
public struct CalibrationResult: Equatable, Sendable, Codable {
    /// Measured rounds per operation (after one discarded warm-up round).
    public var rounds: Int
    public var measurements: [CalibrationMeasurement]
    /// Caveats that apply to the whole run (privileges, pinning that failed, …).
    public var notes: [String]
    public var machine: MachineFacts?
    /// Where the CSV was written, when it was.
    public var csvPath: String?

    public init(rounds: Int, measurements: [CalibrationMeasurement], notes: [String] = [], machine: MachineFacts? = nil, csvPath: String? = nil) {
        self.rounds = rounds
        self.measurements = measurements
        self.notes = notes
        self.machine = machine
        self.csvPath = csvPath
    }

    /// Where the reference columns come from, for the table's footer and the JSON.
    public static let appleSource = "Threading Programming Guide, \"Thread Costs\" table and \"Synchronization\" costs (2 GHz Core Duo, OS X 10.5)"
    public static let earlierSource = "figures measured earlier on this project's Linux machines"
}
