/// The workloads shipped with the tool. Each spends a tenth of its CPU time in the critical
/// section, which only matters when a sweep names a primitive (`--primitive`).
/// `workloads/*.yaml` holds the same specs as files for
/// people to copy and edit; a test keeps the two identical.
package enum BuiltinWorkloads {
    /// CPU-bound: W/C = 0, so the optimum is the core count.
    package static let cpu = WorkloadSpec(
        name: "cpu", description: "CPU-bound: 2 ms of computation, no waiting (W/C = 0)",
        cpuMicroseconds: 2000, waitMicroseconds: 0, trialMilliseconds: 600, criticalMicroseconds: 200)
    /// IO-bound: W/C = 15, so 2 cores want 32 queues.
    package static let io = WorkloadSpec(
        name: "io", description: "IO-bound: 1 ms of computation, then a 15 ms blocking wait (W/C = 15)",
        cpuMicroseconds: 1000, waitMicroseconds: 15000, trialMilliseconds: 600, criticalMicroseconds: 100)
    /// Mixed: W/C = 2.
    package static let mixed = WorkloadSpec(
        name: "mixed", description: "Mixed: 4 ms of computation, then an 8 ms blocking wait (W/C = 2)",
        cpuMicroseconds: 4000, waitMicroseconds: 8000, trialMilliseconds: 600, criticalMicroseconds: 400)

    /// Real disk IO: a 64 KiB write with fsync and a 256 KiB read the page cache does not hold,
    /// around 200 µs of computation. Its W is the device's, so its optimum is measured only.
    package static let fileIO: WorkloadSpec = {
        var spec = WorkloadSpec(
            name: "file-io",
            description: "Real disk IO: 200 µs of computation, a 64 KiB write with fsync and a 256 KiB uncached read",
            cpuMicroseconds: 200, waitMicroseconds: 0, trialMilliseconds: 1000, criticalMicroseconds: 20)
        spec.fileWriteKilobytes = 64
        spec.fileReadKilobytes = 256
        return spec
    }()

    package static let all = [cpu, io, mixed, fileIO]

    package static func named(_ name: String) -> WorkloadSpec? { all.first { $0.name == name } }
}
