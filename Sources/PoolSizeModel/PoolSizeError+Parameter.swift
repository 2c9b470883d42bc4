extension PoolSizeError {
    /// A setting a user gives (a property of the sweep's configuration, of a workload or of a
    /// plan), named in an error about its value. The library names it by this case, as Swift
    /// code spells the setting; the command line spells it as its flag (`sizes` is `--sizes`),
    /// from one table of its own, so no library target spells a flag (docs/conventions.md).
    public enum Parameter: String, CaseIterable, Equatable, Hashable, Sendable {
        /// The pool sizes to measure (`SizeSelection`).
        case sizes
        /// A run directory whose measured sizes a sweep measures again, every size with every
        /// repetition (so that two runs compare size for size).
        case sizesFrom
        /// Measured trials per size and configuration.
        case repetitions
        /// Trials run and discarded before the measured ones.
        case warmupTrials
        /// The cores the sweep sizes for.
        case cores
        /// The CPU utilization the formula sizes for, in (0, 1].
        case targetUtilization
        /// How close to the best throughput a size must come to count as the knee.
        case tolerance
        /// The pool kinds to measure.
        case pools
        /// The QoS tiers to measure.
        case tiers
        /// The critical-section primitives to measure.
        case primitives
        /// The share of critical sections that only read, for the primitives that tell reads apart.
        case readRatio
        /// The length of one trial.
        case trialMilliseconds
        /// The share within which a trial's throughput is known when its window may end early.
        case trialMargin
        /// Whether the sweep also measures the tiers competing for the CPU.
        case contend
        /// How often a trial on a busy machine is retried.
        case busyRetries
        /// How the sizes are chosen: a grid, or an adaptive search.
        case search
        /// The time a sweep may take in all.
        case budgetSeconds
        /// The arrival rates of an open loop (`ArrivalPlan`).
        case arrivalRates
        /// The arrival process of an open loop.
        case arrivalProcess
        /// The latency objective of an open loop.
        case latencySLO
        /// The percentile the latency objective holds at.
        case sloPercentile
        /// The longest one task may run before it is stopped.
        case taskTimeout
        /// The workload spec: a file or a built-in name.
        case workload
        /// A recorded trace of task times.
        case trace
        /// The command each task runs.
        case command
        /// A command that starts the task's program with nothing to do, measured beside it.
        case commandBaseline
        /// The directory the file-IO tasks write in.
        case scratchDirectory
        /// The URL each HTTP task requests.
        case httpURL
        /// The HTTP requests a load driver keeps in flight at once, one connection each.
        case connections
        /// The HTTP request method.
        case httpMethod
        /// The HTTP request headers.
        case httpHeaders
        /// The names of headers that are credentials, redacted wherever recorded.
        case httpSecretHeaders
        /// The names of URL query parameters that are credentials, redacted wherever recorded.
        case httpSecretQuery
        /// The HTTP request body.
        case httpBody
        /// The CA certificates that verify an HTTPS server.
        case httpCACertificates
        /// Whether an HTTPS server's certificate goes unchecked.
        case httpInsecure
        /// The command that starts the server whose pool is sized, at each size (`ServerCommand`).
        case server
        /// The command that changes a running server's pool to each size, instead of a restart.
        case resize
        /// How long a started server may take to answer before its trial fails.
        case readyTimeout
        /// How long a resized server is given before it is measured.
        case settle
        /// The signal that stops a started server (`ServerStopSignal`).
        case stopSignal
        /// The command that runs the user's own load tool once per trial (`LoadCommand`).
        case load
        /// How the load tool's figures are read from its output: a preset or regular expressions
        /// with named groups (`LoadToolParser`).
        case parse
        /// The PostgreSQL server a sweep connects to, as a libpq connection URL or string.
        case postgres
        /// The transaction each task runs, as a pgbench script given inline.
        case sql
        /// The transaction each task runs, as a pgbench script file.
        case sqlFile
        /// Variables set for the whole run of a pgbench script (`NAME=VALUE`).
        case sqlDefines
        /// How a PostgreSQL sweep's client drives its connections: a few threads sending
        /// without blocking, or a thread per connection.
        case postgresClient
        /// The PostgreSQL server behind a chain of pools, watched while its server is loaded.
        case database
        /// Which knobs of a chain multiply to its database connections (`workers*pool+2`).
        case databaseConnections
        /// The run directory a sweep writes.
        case runDirectory
        /// Replacing a run directory that already holds a run.
        case replaceRun
        /// Continuing the run a directory holds.
        case resumeRun
        /// The directory the charts go to.
        case plotsDirectory
        /// A plan's CPU time per task (C).
        case cpuSeconds
        /// A plan's wait time per task (W).
        case waitSeconds
        /// A plan's target request rate.
        case targetRatePerSecond
        /// A plan's cores per host.
        case coresPerHost
        /// A plan's spare capacity.
        case headroom
        /// The length of one calibration round.
        case roundMilliseconds
        /// How long an observation lasts.
        case observeDuration
        /// The command that counts an observed process's finished tasks.
        case counterCommand

        /// How a message mentions this setting in passing: its name in backquotes. The
        /// library's messages read so; the command line writes the flag in its place.
        package var mention: String { "`\(rawValue)`" }
    }
}
