import ArgumentParser
import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// `poolsize bench-harness`: parse → validate → plan → run → export. Measures the sweep's
/// closed-loop trial against the raw-dispatch reference at each task size and queue count and
/// prints a Markdown table of throughputs and ratios (docs/guide/harness-overhead.md).
struct BenchHarnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-harness",
        abstract: "Measure the harness's own cost: sweep trials against plain DispatchQueues running the same tasks.",
        discussion:
            "For each task CPU time and queue count, runs in rotating order a closed-loop trial (what `sweep` measures), a raw-dispatch reference resubmitting through the same pool's round-robin submit (one atomic counter, no per-task clocks), and the reference with each queue resubmitting to itself, and prints the median throughputs, the trial's ratio to the reference, the harness's cost per task, what round-robin submission costs against own-queue resubmission, and context switches per task on each side. A benchmark: run it on an otherwise idle machine. --sides runs only some sides (e.g. one side under strace or valgrind); the adaptive side, the reference through an AdaptiveQueuePool held at the same size, runs only when asked for and adds what that pool costs per task."
    )

    @Option(name: .customLong("task-us"), help: "Task CPU times in µs, comma-separated (1 to 100000).")
    var taskMicroseconds: String = "20,100,1000"

    @Option(help: "Queue counts, comma-separated (default: 1, cores, 2×cores, 4×cores).")
    var sizes: String?

    @Option(name: .customLong("trial-ms"), help: "Length of each run in milliseconds (50 to 60000).")
    var trialMilliseconds: Int = 1_000

    @Option(name: .customLong("repeat"), help: "Runs of each side per point (1 to 50).")
    var repeats: Int = 5

    @Option(help: "Sides to run, comma-separated: harness, reference, own-queue, adaptive.")
    var sides: String = "harness,reference,own-queue"

    func run() throws {
        let cores = MachineProbe.coreCount().effective
        let (tasks, sizeList) = try plan(cores: cores)
        let sideList = try sidesToRun()
        let benchmark = HarnessBenchmark(burner: CPUBurner(), cores: cores)
        var points: [HarnessPoint] = []
        for task in tasks {
            for size in sizeList {
                points.append(
                    try benchmark.measure(
                        taskMicroseconds: task, size: size, trialNanoseconds: UInt64(trialMilliseconds) * 1_000_000,
                        repeats: repeats, sides: sideList))
            }
        }
        print(HarnessTable.render(points), terminator: "")
    }

    /// The validated `--sides`, each once.
    func sidesToRun() throws(PoolSizeError) -> [HarnessSide] {
        var list: [HarnessSide] = []
        for field in sides.split(separator: ",", omittingEmptySubsequences: false) {
            let name = field.trimmingCharacters(in: .whitespaces)
            guard let side = HarnessSide(rawValue: name) else {
                throw .invalidOption(
                    flag: "--sides",
                    message: "'\(name)' is not a side; pass some of harness,reference,own-queue,adaptive")
            }
            if !list.contains(side) { list.append(side) }
        }
        return list
    }

    /// Validated task times and sizes.
    func plan(cores: Int) throws(PoolSizeError) -> ([Double], [Int]) {
        try (50...60_000).check(trialMilliseconds, flag: "--trial-ms")
        try (1...50).check(repeats, flag: "--repeat")
        var tasks: [Double] = []
        for field in taskMicroseconds.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(field.trimmingCharacters(in: .whitespaces)), value >= 1, value <= 100_000 else {
                throw .invalidOption(
                    flag: "--task-us", message: "'\(field)' is not a task time of 1 to 100000 µs; pass e.g. 20,100,1000"
                )
            }
            tasks.append(value)
        }
        guard let sizes else { return (tasks, Array(Set([1, cores, 2 * cores, 4 * cores])).sorted()) }
        var sizeList: [Int] = []
        for field in sizes.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Int(field.trimmingCharacters(in: .whitespaces)), (1...4_096).contains(value) else {
                throw .invalidOption(
                    flag: "--sizes", message: "'\(field)' is not a queue count of 1 to 4096; pass e.g. 1,2,4,8")
            }
            sizeList.append(value)
        }
        return (tasks, sizeList)
    }
}
