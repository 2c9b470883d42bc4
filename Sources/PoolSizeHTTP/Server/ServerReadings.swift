import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// The server's session read at a driven trial's checkpoints (as the window opens and as it
/// closes, while the driver's connections are still open: a thread-per-connection server's
/// threads, and their CPU, end with them), with the machine's busy time and this process's
/// CPU at the same instants, for the load the rest of the machine put on the trial.
struct ServerReadings {
    /// One reading: the session's usage, the machine's busy CPU, this process's CPU (ns).
    typealias Reading = (usage: SessionUsage, busy: UInt64?, own: UInt64)

    let server: RunningServer
    private let clocks = SystemClocks()
    private var readings: [Reading] = []

    /// Readings of `server`'s session.
    init(server: RunningServer) { self.server = server }

    /// Reads the session now. Its processes are listed at each reading: one the server forked
    /// for a connection during the warm-up is in the first, one forked in the window is counted
    /// whole at the close.
    mutating func read() {
        readings.append(
            (
                SessionUsage.read(processes: ServerProcess.processes(inSession: server.process.pid), switches: true),
                clocks.machineBusyNanoseconds(), clocks.processUsage().cpuNanoseconds
            ))
    }

    /// Ends the readings once the load has run: a run that made fewer than two (one that
    /// never opened its window) gets an empty first one and one taken now.
    mutating func finish() {
        guard readings.count < 2 else { return }
        let first: Reading = readings.first ?? (SessionUsage(), nil, 0)
        read()
        readings = [first, readings[readings.count - 1]]
    }

    /// The reading as the window opened (`finish` first).
    var before: Reading { readings[0] }

    /// The reading as the window closed (`finish` first).
    var after: Reading { readings[readings.count - 1] }
}
