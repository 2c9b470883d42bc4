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

    package static let all = [cpu, io, mixed]

    package static func named(_ name: String) -> WorkloadSpec? { all.first { $0.name == name } }
}
