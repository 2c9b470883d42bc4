import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// The server's session read at a driven trial's checkpoints (as the window opens and as it
/// closes, while the driver's connections are still open: a thread-per-connection server's
/// threads, and their CPU, end with them), with the machine's busy time and this process's
/// CPU at the same instants, for the load the rest of the machine put on the trial; and the
/// database behind the server, when the sweep watches one, over the same window.
struct ServerReadings {
    /// One reading: the session's usage, the machine's busy CPU, this process's CPU (ns).
    typealias Reading = (usage: SessionUsage, busy: UInt64?, own: UInt64)

    let server: RunningServer
    /// The database behind the server, opened with the window and closed by `finish()`.
    let watch: (any TrialWindowWatch)?
    private let clocks = SystemClocks()
    private var readings: [Reading] = []
    /// What `watch` saw of the database over the window, once `finish()` has closed it.
    private(set) var database: DatabaseFigures?

    /// Readings of `server`'s session, and of its database through `watch`.
    init(server: RunningServer, watch: (any TrialWindowWatch)? = nil) {
        self.server = server
        self.watch = watch
    }

    /// Reads the session now. Its processes are listed at each reading: one the server forked
    /// for a connection during the warm-up is in the first, one forked in the window is counted
    /// whole at the close.
    mutating func read() {
        readings.append(
            (
                SessionUsage.read(processes: ServerProcess.processes(inSession: server.process.pid), switches: true),
                clocks.machineBusyNanoseconds(), clocks.processUsage().cpuNanoseconds
            ))
        if readings.count == 1 { watch?.windowOpened() }
    }

    /// Ends the readings once the load has run: a run that made fewer than two (one that
    /// never opened its window) gets an empty first one and one taken now.
    mutating func finish() {
        if readings.count < 2 {
            let first: Reading = readings.first ?? (SessionUsage(), nil, 0)
            read()
            readings = [first, readings[readings.count - 1]]
        }
        database = watch?.windowClosed().database
    }

    /// The reading as the window opened (`finish` first).
    var before: Reading { readings[0] }

    /// The reading as the window closed (`finish` first).
    var after: Reading { readings[readings.count - 1] }
}
