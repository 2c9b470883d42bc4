/// What a chain's sweep found at one cell: its throughput and latency from the valid trials of
/// its row's run, or why it was not measured.
package struct ChainCellFigures: Equatable, Sendable {
    /// How the cell ended.
    package enum Status: Equatable, Sendable {
        /// At least one valid trial.
        case measured
        /// Not run: the database does not allow its connections (the sentence says so).
        case excluded(String)
        /// Run, with no valid trial: the first trial's reason.
        case failed(String)
        /// Not reached (the sweep was interrupted, or its row could not start).
        case notRun
    }

    package var cell: KnobCell
    /// The row's run directory name below `rows/`.
    package var row: String
    /// The connections the cell opens at most, when the chain says how to count them.
    package var connections: Int?
    package var status: Status
    /// Valid trials.
    package var trials: Int = 0
    /// Mean throughput of the valid trials, per second.
    package var throughputPerSecond: Double?
    /// Mean 99th-percentile latency of the valid trials, in microseconds.
    package var p99Microseconds: Double?
    /// Failed requests over the valid trials.
    package var errors: Int = 0
    /// Mean share of the cores the server's processes used in the valid trials.
    package var utilization: Double?
    /// Mean share of the cores the whole machine was busy in the valid trials: the server's
    /// processes, everything else on it (a local database), and the load driver.
    package var machineBusy: Double?
    /// The server's working processes in its last valid trial.
    package var processes: Int?
    /// The runtime with a global interpreter lock the server's processes run, when they do.
    package var interpreterLock: String?
    /// What the database behind the server saw over the valid trials, summed; nil when the
    /// sweep watched none.
    package var database: DatabaseFigures?

    package init(cell: KnobCell, row: String, connections: Int?, status: Status) {
        self.cell = cell
        self.row = row
        self.connections = connections
        self.status = status
    }

    /// The figures of `cell` from its row's trials at `size`: the mean of the valid ones.
    /// - Parameter cores: the cores the trials' utilization is a share of (the sweep's).
    package init(cell: KnobCell, row: String, connections: Int?, trials records: [TrialRecord], cores: Int) {
        self.init(cell: cell, row: row, connections: connections, status: .notRun)
        let valid = records.valid
        guard !valid.isEmpty else {
            if let reason = records.first?.invalidReason { status = .failed(reason) }
            return
        }
        status = .measured
        trials = valid.count
        throughputPerSecond = valid.map(\.throughputPerSecond).reduce(0, +) / Double(valid.count)
        let p99 = valid.map(\.latency.p99).filter { $0 > 0 }
        p99Microseconds = p99.isEmpty ? nil : p99.reduce(0, +) / Double(p99.count)
        errors = valid.map(\.errors).reduce(0, +)
        utilization = valid.map(\.utilization).reduce(0, +) / Double(valid.count)
        machineBusy =
            valid.map {
                $0.utilization + $0.otherLoad
                    + $0.driverCPUMicrosecondsPerRequest * $0.throughputPerSecond / 1e6 / Double(max(cores, 1))
            }.reduce(0, +) / Double(valid.count)
        if let server = valid.last?.watched.server {
            processes = server.processes
            interpreterLock = server.interpreterLock
        }
        let watched = valid.compactMap(\.watched.database)
        database = watched.dropFirst().reduce(watched.first) { sum, figures in sum?.adding(figures) }
    }

    /// The word chain.csv's status column holds.
    package var statusWord: String {
        switch status {
        case .measured: "measured"
        case .excluded: "excluded"
        case .failed: "failed"
        case .notRun: "not run"
        }
    }

    /// Why the cell has no figures; nil when it has.
    package var reason: String? {
        switch status {
        case .measured, .notRun: nil
        case .excluded(let why), .failed(let why): why
        }
    }
}
