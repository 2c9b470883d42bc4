import Foundation
import PoolSizeModel

/// The harness benchmark as Markdown (docs/guide/harness-overhead.md): a table of median
/// throughputs (the closed-loop trial, the raw-dispatch reference through the same pool's
/// submit, their ratio, the range of the ratio within single repetitions, the harness's cost per
/// task, and the own-queue reference beside the
/// pool reference), then a table of context switches per task on each side and the tasks each
/// side ran in all (to turn an outside tool's counts into counts per task).
package enum HarnessTable {
    /// Both tables, one row per point, in the order given; a ratio below `target` is marked.
    /// A side that did not run shows "—", and so does any figure that needs it.
    package static func render(_ points: [HarnessPoint], target: Double = 0.95) -> String {
        var lines = [
            "| task C | queues | harness tasks/s | reference tasks/s | ratio | ratio per repetition | harness cost/task | own-queue tasks/s | reference / own-queue |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for point in points {
            let harness = !point.harnessPerSecond.isEmpty, reference = !point.referencePerSecond.isEmpty,
                ownQueue = !point.ownQueuePerSecond.isEmpty
            let ratio =
                harness && reference ? String(format: "%.3f", point.ratio) + (point.ratio < target ? " ✗" : "") : "—"
            let paired = point.pairedRatios
            let spread =
                paired.isEmpty
                ? "—"
                : paired.count == 1
                    ? String(format: "%.3f", paired[0]) : String(format: "%.3f–%.3f", paired.min()!, paired.max()!)
            let cost = harness && reference ? String(format: "%.0f ns", point.costPerTaskNanoseconds) : "—"
            let submission = reference && ownQueue ? String(format: "%.3f", point.poolSubmissionRatio) : "—"
            lines.append(
                "| \(task(point)) | \(point.size) | \(rate(point.harnessPerSecond, point.harnessMedian)) | \(rate(point.referencePerSecond, point.referenceMedian)) | \(ratio) | \(spread) | \(cost) | \(rate(point.ownQueuePerSecond, point.ownQueueMedian)) | \(submission) |"
            )
        }
        lines += [
            "",
            "Context switches per task (voluntary + involuntary, getrusage over each side's runs):",
            "",
            "| task C | queues | harness | reference | own-queue | tasks run: harness / reference / own-queue |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for point in points {
            let sides: [HarnessSide] = [.harness, .reference, .ownQueue]
            let cells = sides.map { side -> String in
                guard let tally = point.switches[side], let voluntary = tally.voluntaryPerTask,
                    let involuntary = tally.involuntaryPerTask
                else { return "—" }
                return String(format: "%.3f + %.3f", voluntary, involuntary)
            }
            let tasks = sides.map { side in point.switches[side].map { String($0.tasks) } ?? "—" }
            lines.append(
                "| \(task(point)) | \(point.size) | \(cells.joined(separator: " | ")) | \(tasks.joined(separator: " / ")) |"
            )
        }
        if points.contains(where: { !$0.adaptivePerSecond.isEmpty }) {
            lines += [
                "",
                "The adaptive pool held at the same size against the reference (both through the pool's submit):",
                "",
                "| task C | queues | reference tasks/s | adaptive tasks/s | adaptive cost/task |",
                "|---:|---:|---:|---:|---:|",
            ]
            for point in points {
                let both = !point.referencePerSecond.isEmpty && !point.adaptivePerSecond.isEmpty
                let cost = both ? String(format: "%.0f ns", point.adaptiveCostPerTaskNanoseconds) : "—"
                lines.append(
                    "| \(task(point)) | \(point.size) | \(rate(point.referencePerSecond, point.referenceMedian)) | \(rate(point.adaptivePerSecond, point.adaptiveMedian)) | \(cost) |"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func task(_ point: HarnessPoint) -> String { "\(UnitFormat.number(point.taskMicroseconds)) µs" }

    private static func rate(_ runs: [Double], _ median: Double) -> String {
        runs.isEmpty ? "—" : String(format: "%.0f", median)
    }
}
