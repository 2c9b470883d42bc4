import Foundation
import PoolSizeModel

/// Reads what `compare` needs of a run directory (results/README.md): every repetition's
/// throughput and p99 latency from `trials.csv`, grouped by configuration, and the cores and
/// workload spec from `machine.json`. Both files are required: without `machine.json` a
/// comparison could not tell a slower build from a smaller machine.
public enum CompareRunReader {
    static let configurationColumns = ["workload", "pool", "qos", "primitive", "pool_size"]

    /// - Parameter path: a run directory, or its `trials.csv`.
    public static func load(_ path: String) throws(PoolSizeError) -> RunSamples {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .inputNotFound(path: path, hint: "pass a run directory written by 'poolsize sweep' (results/<run-id>)")
        }
        let directory = isDirectory.boolValue ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path).deletingLastPathComponent()
        let trials = isDirectory.boolValue ? directory.appendingPathComponent("trials.csv") : URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: trials.path) else {
            throw .inputNotFound(path: trials.path, hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        }
        let machineURL = directory.appendingPathComponent("machine.json")
        guard let machine = try RunDirectoryJSON.decode(RunDirectoryJSON.Machine.self, from: machineURL) else {
            throw .inputNotFound(path: machineURL.path, hint: "compare checks the cores and workload a run records there; pass a run directory written by 'poolsize sweep'")
        }
        let samples = try samples(CSVTable.load(path: trials.path))
        let workload = machine.workload.map {
            RunSamples.Workload(name: $0.name, cpuMicroseconds: $0.cpuMicroseconds, waitMicroseconds: $0.waitMicroseconds, criticalMicroseconds: $0.criticalMicroseconds, jitter: $0.jitter)
        } ?? RunSamples.Workload()
        return RunSamples(
            runID: machine.runID ?? directory.standardizedFileURL.lastPathComponent, cores: machine.machine?.cores?.resolved,
            workload: workload, samples: samples)
    }

    /// Repetitions per configuration. Cells may be `nan` (a metric undefined in that trial; the
    /// comparison drops it); anything else that is not a number is an error naming its line.
    public static func samples(_ table: CSVTable) throws(PoolSizeError) -> [RunConfiguration: RunSamples.Samples] {
        var keyColumns: [Int] = []
        for name in configurationColumns { keyColumns.append(try table.column(name, flag: "compare")) }
        let throughputColumn = try table.column("throughput_per_s", flag: "compare")
        let latencyColumn = table.header.firstIndex(of: "latency_p99_us")
        var result: [RunConfiguration: RunSamples.Samples] = [:]
        for (offset, row) in table.rows.enumerated() where !(row.count == 1 && row[0].isEmpty) {
            let cell = { (index: Int) in index < row.count ? row[index].trimmingCharacters(in: .whitespaces) : "" }
            let number = { (index: Int) throws(PoolSizeError) -> Double in
                guard let value = Double(cell(index)) else {
                    throw .invalidInput(path: table.path, message: "line \(offset + 2), column '\(table.header[index])': '\(cell(index))' is not a number")
                }
                return value
            }
            guard let size = Int(cell(keyColumns[4])) else {
                throw .invalidInput(path: table.path, message: "line \(offset + 2), column 'pool_size': '\(cell(keyColumns[4]))' is not a whole number")
            }
            let key = RunConfiguration(workload: cell(keyColumns[0]), pool: cell(keyColumns[1]), qos: cell(keyColumns[2]), primitive: cell(keyColumns[3]), poolSize: size)
            result[key, default: RunSamples.Samples()].throughputPerSecond.append(try number(throughputColumn))
            if let latencyColumn { result[key, default: RunSamples.Samples()].latencyP99Microseconds.append(try number(latencyColumn)) }
        }
        return result
    }
}
