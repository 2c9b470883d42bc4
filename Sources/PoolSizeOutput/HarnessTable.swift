import Foundation
import PoolSizeModel

/// The harness benchmark as a Markdown table (README "Harness overhead"): per point the
/// median throughput of the closed-loop trial and of the raw-dispatch reference, their ratio,
/// and the harness's cost per task.
package enum HarnessTable {
    /// The table, one row per point, in the order given; a point whose ratio is below
    /// `target` is marked.
    package static func render(_ points: [HarnessPoint], target: Double = 0.95) -> String {
        var lines = [
            "| task C | queues | harness tasks/s | reference tasks/s | ratio | harness cost/task |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for point in points {
            let ratio = String(format: "%.3f", point.ratio) + (point.ratio < target ? " ✗" : "")
            lines.append("| \(UnitFormat.number(point.taskMicroseconds)) µs | \(point.size) | \(String(format: "%.0f", point.harnessMedian)) | \(String(format: "%.0f", point.referenceMedian)) | \(ratio) | \(String(format: "%.0f", point.costPerTaskNanoseconds)) ns |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
