import Foundation

/// Whether a server that has begun to answer has finished starting. A server that forks
/// workers (gunicorn, Puma) answers as soon as its first worker accepts, while the others are
/// still loading code and opening their database connections; load that starts then opens
/// its kept-alive connections on the workers already up, and the late ones get none for the
/// whole trial. So after the first answer the server's session is read every `windowSeconds`
/// until `quietWindows` windows in a row change nothing: no process started or ended, no
/// thread, no file or socket opened or closed, and the session's threads together used at
/// most `busyShare` of one core.
package struct SessionSettling: Sendable, Equatable {
    /// What the session holds at one moment.
    package struct Reading: Equatable, Sendable {
        /// Threads of each process, by process id.
        package var threads: [Int32: Int] = [:]
        /// Open files (sockets and pipes included) of each process, by process id.
        package var openFiles: [Int32: Int] = [:]
        /// CPU of every thread alive at the reading, together, in nanoseconds.
        package var cpuNanoseconds: UInt64 = 0

        package init(threads: [Int32: Int] = [:], openFiles: [Int32: Int] = [:], cpuNanoseconds: UInt64 = 0) {
            self.threads = threads
            self.openFiles = openFiles
            self.cpuNanoseconds = cpuNanoseconds
        }

        /// The session `session` now, from /proc.
        package static func read(session: Int32) -> Reading {
            var reading = Reading()
            let usage = SessionUsage.read(processes: ProcReader.processes(inSession: session), switches: false)
            for (_, pid) in usage.processOfThread { reading.threads[pid, default: 0] += 1 }
            for pid in reading.threads.keys { reading.openFiles[pid] = ProcReader.openFiles(of: pid) ?? -1 }
            reading.cpuNanoseconds = usage.threadCPUNanoseconds.values.reduce(0, +)
            return reading
        }
    }

    /// How often the session is read.
    package var windowSeconds = 0.1
    /// Quiet windows in a row that say the server has settled.
    package var quietWindows = 2
    /// The share of one core the session may use in a quiet window: an idle server's timers
    /// and collector, not a worker loading its code.
    package var busyShare = 0.1

    package init(windowSeconds: Double = 0.1, quietWindows: Int = 2, busyShare: Double = 0.1) {
        self.windowSeconds = windowSeconds
        self.quietWindows = quietWindows
        self.busyShare = busyShare
    }

    /// Whether the window from `earlier` to `later`, `seconds` long, was quiet: the same
    /// processes with the same threads and open files, and little CPU. A thread that ended
    /// takes its CPU with it, so the CPU may seem to fall; that window has a thread fewer and
    /// is not quiet anyway.
    package func isQuiet(from earlier: Reading, to later: Reading, seconds: Double) -> Bool {
        guard !later.threads.isEmpty, earlier.threads == later.threads, earlier.openFiles == later.openFiles else {
            return false
        }
        let used = later.cpuNanoseconds >= earlier.cpuNanoseconds ? later.cpuNanoseconds - earlier.cpuNanoseconds : 0
        return Double(used) <= busyShare * seconds * 1e9
    }

    /// Reads `session` until it has been quiet for `quietWindows` windows, `hasEnded` says
    /// the server is gone, or `timeoutSeconds` pass. Returns whether it settled.
    package func wait(session: Int32, timeoutSeconds: Double, hasEnded: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var last = Reading.read(session: session)
        var lastTime = Date()
        var quiet = 0
        while Date() < deadline, !hasEnded() {
            usleep(useconds_t(windowSeconds * 1e6))
            let now = Reading.read(session: session)
            let time = Date()
            quiet = isQuiet(from: last, to: now, seconds: time.timeIntervalSince(lastTime)) ? quiet + 1 : 0
            if quiet >= quietWindows { return true }
            last = now
            lastTime = time
        }
        return false
    }
}
