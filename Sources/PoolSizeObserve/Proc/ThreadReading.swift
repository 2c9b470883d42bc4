import PoolSizeProcess

/// One thread at one sampled instant, parsed: its counters (exact, cumulative) and what it was
/// doing (a sample). Built from `RawThreadTexts` both live and from a recording.
package struct ThreadReading: Equatable, Sendable {
    /// The process.
    package var pid: Int32
    /// The thread.
    package var tid: Int32
    /// Its name (comm, 15 bytes at most).
    package var comm: String
    /// stat's state letter.
    package var state: Character
    /// CPU consumed since the thread started: schedstat's exact nanoseconds, or stat's ticks
    /// converted when the kernel has no schedstat.
    package var cpuNanoseconds: UInt64
    /// Run-queue wait since the thread started (schedstat); nil without schedstat.
    package var runQueueNanoseconds: UInt64?
    /// When the thread started, in seconds since boot (stat field 22).
    package var startSeconds: Double
    /// The blocking call, when it was read.
    package var syscall: SyscallReading?
    /// The kind of descriptor the call waits on.
    package var descriptor: DescriptorKind?
    /// The socket behind that descriptor.
    package var socket: SocketEndpoint?
    /// What a multiplexed wait (epoll_wait, poll, select) watches; nil when not read.
    package var waitSet: [WaitMember]?
    /// Voluntary and involuntary context switches since start, when status was read.
    package var switches: (voluntary: UInt64, involuntary: UInt64)?

    /// Parses one read; nil when stat is empty or malformed (the thread exited mid-read).
    package init?(_ raw: RawThreadTexts, clockTicksPerSecond: Double) {
        guard let stat = ProcText.stat(raw.stat) else { return nil }
        pid = raw.pid
        tid = raw.tid
        comm = stat.comm
        state = stat.state
        startSeconds = Double(stat.startTicks) / clockTicksPerSecond
        if let schedstat = raw.schedstat.flatMap(ProcText.schedstat) {
            cpuNanoseconds = schedstat.cpuNanoseconds
            runQueueNanoseconds = schedstat.runQueueNanoseconds
        } else {
            cpuNanoseconds = UInt64((Double(stat.cpuTicks) / clockTicksPerSecond * 1e9).rounded())
            runQueueNanoseconds = nil
        }
        if let errno = raw.syscallErrno {
            syscall = .unreadable(errno: errno)
        } else {
            syscall = raw.syscall.flatMap { SyscallReading(text: $0) }
        }
        descriptor = raw.descriptor.flatMap(DescriptorKind.init(link:))
        socket = raw.socket
        waitSet = raw.waitSet.map { members in
            members.map(WaitMember.init) + ((raw.waitSetSize ?? 0) > members.count ? [.unknown] : [])
        }
        switches = raw.status.flatMap(ProcText.switches)
    }

    /// This reading's sample class and label.
    package func classified(on architecture: SyscallArchitecture) -> (class: SampleClass, label: String) {
        SampleClassifier.classify(
            state: state, syscall: syscall, descriptor: descriptor, socket: socket, waitSet: waitSet,
            architecture: architecture)
    }

    /// Field by field (the switch counts are a tuple, which has no synthesized equality).
    package static func == (a: ThreadReading, b: ThreadReading) -> Bool {
        a.pid == b.pid && a.tid == b.tid && a.comm == b.comm && a.state == b.state
            && a.cpuNanoseconds == b.cpuNanoseconds
            && a.runQueueNanoseconds == b.runQueueNanoseconds && a.startSeconds == b.startSeconds
            && a.syscall == b.syscall
            && a.descriptor == b.descriptor && a.socket == b.socket && a.waitSet == b.waitSet
            && a.switches?.voluntary == b.switches?.voluntary
            && a.switches?.involuntary == b.switches?.involuntary
    }
}
