import PoolSizeModel
@testable import PoolSizeObserve

/// Hand-made sweeps whose every figure is worked out by hand in `EstimatorTests`.
enum EstimatorFixtures {
    /// A stat line with the fields the estimator reads: state, utime + stime, start time.
    static func stat(_ tid: Int32, _ comm: String, _ state: Character, startTicks: Int) -> String {
        "\(tid) (\(comm)) \(state) 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 4 0 \(startTicks) 0 0\n"
    }

    static func schedstat(cpu: UInt64, queue: UInt64) -> String { "\(cpu) \(queue) 1\n" }

    /// x86_64 syscall lines with argument 0 = 5.
    static func call(_ number: Int) -> String { "\(number) 0x5 0x7ffd0000 0x1 0x0 0x0 0x0 0x7ffd1000 0x7f001000\n" }

    static func thread(
        _ tid: Int32, _ comm: String, _ state: Character, cpu: UInt64, queue: UInt64, syscall: String? = nil,
        link: String? = nil, socket: SocketEndpoint? = nil, waitSet: [RawDescriptor]? = nil, startTicks: Int = 5000,
        pid: Int32 = 10
    ) -> RawThreadTexts {
        RawThreadTexts(
            pid: pid, tid: tid, stat: stat(tid, comm, state, startTicks: startTicks),
            schedstat: schedstat(cpu: cpu, queue: queue), syscall: syscall, descriptor: link, socket: socket,
            waitSet: waitSet)
    }

    /// An epoll set holding a listening socket: an event loop waiting for connections (idle).
    static let listening = [
        RawDescriptor(
            link: "socket:[3]",
            socket: SocketEndpoint(table: "tcp", local: "0.0.0.0:8080", remote: nil, state: "LISTEN"))
    ]

    static let peer = SocketEndpoint(
        table: "tcp", local: "127.0.0.1:50000", remote: "127.0.0.1:8080", state: "ESTABLISHED")

    /// Three sweeps one second apart (t = 100, 101, 102 s since boot), clock 100 ticks/s:
    /// - worker-1 (11): +0.2 s CPU and +0.05 s run queue per second; read on a pipe at 101, futex at 102;
    /// - worker-2 (12): +0.1 s CPU per second, +0.05 s run queue in the second interval; running at
    ///   101, epoll_wait at 102;
    /// - worker-3 (13): started at 101.5 s (10150 ticks) with 0.05 s CPU; read on a socket at 102;
    /// - app (10): no CPU, futex throughout; app (14): nanosleep at 100 and 101, gone at 102.
    static let recording = ProcRecording(
        header: header(cores: 2),
        sweeps: [
            RawSweep(
                timeSeconds: 100,
                threads: [
                    thread(10, "app", "S", cpu: 5_000_000_000, queue: 0, syscall: call(202)),
                    thread(
                        11, "worker-1", "S", cpu: 1_000_000_000, queue: 100_000_000, syscall: call(0), link: "pipe:[7]"),
                    thread(12, "worker-2", "S", cpu: 0, queue: 0, syscall: call(232), link: "anon_inode:[eventpoll]"),
                    thread(14, "app", "S", cpu: 0, queue: 0, syscall: call(35)),
                ]),
            RawSweep(
                timeSeconds: 101,
                threads: [
                    thread(10, "app", "S", cpu: 5_000_000_000, queue: 0, syscall: call(202)),
                    thread(
                        11, "worker-1", "S", cpu: 1_200_000_000, queue: 150_000_000, syscall: call(0), link: "pipe:[7]"),
                    thread(12, "worker-2", "R", cpu: 100_000_000, queue: 0),
                    thread(14, "app", "S", cpu: 0, queue: 0, syscall: call(35)),
                ]),
            RawSweep(
                timeSeconds: 102,
                threads: [
                    thread(10, "app", "S", cpu: 5_000_000_000, queue: 0, syscall: call(202)),
                    thread(11, "worker-1", "S", cpu: 1_400_000_000, queue: 200_000_000, syscall: call(202)),
                    thread(
                        12, "worker-2", "S", cpu: 200_000_000, queue: 50_000_000, syscall: call(232),
                        link: "anon_inode:[eventpoll]", waitSet: listening),
                    thread(
                        13, "worker-3", "S", cpu: 50_000_000, queue: 0, syscall: call(0), link: "socket:[9]",
                        socket: peer, startTicks: 10150),
                ]),
        ])

    static func header(cores: Int) -> ObservationHeader {
        ObservationHeader(
            target: ObservedTarget(pid: 10, command: "app --serve", startedByObserver: false, includesChildren: false),
            architecture: .x86_64, clockTicksPerSecond: 100,
            cores: CoreCount(online: 4, affinity: cores, cgroupQuota: nil), seed: 1,
            sampler: SamplerCost(
                sweeps: 3, threadReads: 12, samplerCPUNanoseconds: 120_000, processCPUNanoseconds: 200_000,
                wallSeconds: 2),
            limits: [], cpuPressureSomePercent: nil)
    }
}
