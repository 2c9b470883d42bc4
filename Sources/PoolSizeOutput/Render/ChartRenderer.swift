import Foundation
import PoolSizeProcess

/// Turns a written `.gp` script into its SVG and PNG. The seam between the pure chart text and
/// the gnuplot program (docs/conventions.md): `GnuplotRenderer` runs it, tests pass a fake.
package protocol ChartRenderer {
    /// Renders one script; the script writes its outputs beside itself.
    func render(script: URL) throws(ChartRenderFailure)
}

/// Why a chart was not rendered.
package enum ChartRenderFailure: Error, Equatable, Sendable {
    /// No `gnuplot` on PATH: nothing will render, so callers stop trying after the first.
    case notInstalled
    /// gnuplot ran and failed on this script; `message` is its first error line.
    case failed(script: String, message: String)
    /// gnuplot did not finish within the time limit and was stopped.
    case timedOut(script: String, seconds: Double)
}

/// Runs `gnuplot SCRIPT` found on PATH, with stderr captured and a time limit. gnuplot prints
/// warnings on success too, so only its exit status decides.
package struct GnuplotRenderer: ChartRenderer {
    package var environment: [String: String]
    package var timeoutSeconds: Double

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, timeoutSeconds: Double = 60) {
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
    }

    /// The gnuplot executable on PATH, or nil.
    package var executable: URL? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("gnuplot") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    package func render(script: URL) throws(ChartRenderFailure) {
        guard let executable else { throw .notInstalled }
        let child = ChildProcessRunner(timeoutSeconds: timeoutSeconds).run(
            executable: executable, arguments: [script.path], environment: environment)
        switch child.outcome {
        case .exited(code: 0):
            return
        case let .exited(code):
            throw .failed(script: script.path, message: Self.firstError(child.standardError, status: code))
        case let .signaled(signal):
            throw .failed(script: script.path, message: Self.firstError(child.standardError, status: 128 + signal))
        case .timedOut:
            throw .timedOut(script: script.path, seconds: timeoutSeconds)
        case let .failedToStart(reason):
            throw .failed(script: script.path, message: "could not start gnuplot: \(reason)")
        }
    }

    /// gnuplot reports `"file.gp" line 12: message` after echoing the offending line; keep the
    /// line with the message.
    static func firstError(_ stderr: String, status: Int32) -> String {
        let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && $0 != "^"
        }
        return lines.first { $0.contains(" line ") } ?? lines.last ?? "gnuplot exited with status \(status)"
    }
}
