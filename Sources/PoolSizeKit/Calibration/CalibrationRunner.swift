import Dispatch
import PoolSizeModel

/// How `poolsize calibrate` measures.
package struct CalibrationSettings: Sendable, Equatable {
    /// Measured rounds per operation, after one discarded warm-up round.
    package var rounds: Int
    /// Time one round of a loop measurement aims for.
    package var roundMilliseconds: Double
    /// Idle threads added per round of the memory measurement.
    package var threadsPerMemoryRound: Int

    package init(rounds: Int = 7, roundMilliseconds: Double = 20, threadsPerMemoryRound: Int = 16) {
        self.rounds = rounds
        self.roundMilliseconds = roundMilliseconds
        self.threadsPerMemoryRound = threadsPerMemoryRound
    }
}

/// Hears about each operation as it is measured, so the CSV is rewritten after every one and a
/// failure part-way loses nothing already measured (docs/conventions.md).
package protocol CalibrationObserver: AnyObject {
    func calibrationWillMeasure(_ operation: CalibrationOperation, index: Int, of total: Int)
    func calibrationMeasured(_ measurement: CalibrationMeasurement, notes: [String]) throws(PoolSizeError)
}

/// Measures every `CalibrationOperation`: one warm-up round, then `rounds` rounds, each round
/// giving one per-operation value; the summary of those values is the result.
package struct CalibrationRunner {
    package let settings: CalibrationSettings

    package init(settings: CalibrationSettings = CalibrationSettings()) {
        self.settings = settings
    }

    /// Runs `body` once to warm up, then `settings.rounds` times.
    func rounds<T>(_ body: () throws(PoolSizeError) -> T) throws(PoolSizeError) -> [T] {
        _ = try body()
        var values: [T] = []
        for _ in 0..<settings.rounds { values.append(try body()) }
        return values
    }

    package func run(observer: (any CalibrationObserver)? = nil) throws(PoolSizeError) -> CalibrationResult {
        let session = CalibrationSession(runner: self, observer: observer)
        try session.measureThreads()
        try session.measureLocks()
        try session.measureHandoffs()
        try session.measureDispatch()
        try session.measureMemory()
        return CalibrationResult(rounds: settings.rounds, measurements: session.measurements, notes: session.notes)
    }
}
