import Foundation
import PoolSizeKit
import PoolSizeModel

extension CommandTask {
    /// The command as each task of poolsize's pools, each run stopped after `timeoutSeconds`.
    func prepare(_ context: TargetContext, timeoutSeconds: Double) throws(PoolSizeError) -> PreparedTarget {
        let source = try CommandSource(
            arguments: ShellWords.split(command), timeoutSeconds: timeoutSeconds,
            outputDirectory: outputDirectory.map { URL(fileURLWithPath: $0) }, reapsOrphans: true,
            baseline: try baseline.map { command throws(PoolSizeError) in
                try ShellWords.split(command, parameter: .commandBaseline)
            })
        let spec = WorkloadSpec(
            name: "exec-" + URL(fileURLWithPath: source.arguments[0]).lastPathComponent,
            description:
                "command: \(Secrets.commandText(command.split(whereSeparator: \.isNewline).joined(separator: " ")))",
            cpuMicroseconds: 0, waitMicroseconds: 0, trialMilliseconds: context.trialMilliseconds ?? 1000)
        return PreparedTarget(
            spec: spec, run: .source(source), isLoopbackServer: false, taskTimeoutSeconds: source.timeoutSeconds)
    }
}
