extension ObservationAccumulator {
    /// A thread alive at the last sweep added: its counters then, its part, and its status counts.
    struct LiveThread: Sendable {
        var part: Int
        var cpuNanoseconds: UInt64
        var runQueueNanoseconds: UInt64?
        /// Whether it started during the observation.
        var started = false
        var firstSwitches: SwitchCount?
        var lastSwitches: SwitchCount?
    }

    /// A process's CPU as its stat counted it at the first and the latest sweep, and what its
    /// threads' schedstat deltas added up to in between, nanoseconds.
    struct ProcessCPU: Sendable {
        var first: UInt64
        var last: UInt64
        var threadNanoseconds: UInt64 = 0
    }

    /// Context switches read from status at one sweep.
    struct SwitchCount: Sendable {
        var time: Double
        var voluntary: UInt64
        var involuntary: UInt64
    }

    /// A sweep held back: each reading's part and, past the first sweep, what it contributes.
    struct PendingSweep: Sendable {
        /// Its interval (1 for the first pair of sweeps; 0 for the first sweep).
        var interval: Int
        /// Seconds after the first sweep.
        var end: Double
        var events: [Event]
    }

    /// One reading of a held-back sweep.
    struct Event: Sendable {
        var key: ThreadKey
        var part: Int
        var comm: String
        var contribution: Contribution?
    }

    /// What one reading adds: the interval's thread time, CPU and run-queue time, its sample,
    /// and for a blocked sample its call and peer.
    struct Contribution: Sendable {
        var threadSeconds: Double
        var cpuSeconds: Double
        var runQueueSeconds: Double
        var sample: SampleClass
        var call: String?
        var peer: String?
    }

    /// The threads of one process gathered under one provisional pool name.
    struct PartKey: Hashable, Sendable {
        var pid: Int32
        var name: String
    }

    /// A provisional pool name within the processes of one title key: what the most threads
    /// alive at once are counted by, since a pool may be split by title.
    struct TitledName: Hashable, Sendable {
        var name: String
        var titleKey: String?
    }
}
