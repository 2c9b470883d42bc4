import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

@testable import PoolSizeHTTP

/// A server sized by a resize command instead of a restart (`ServerResize`): the command runs
/// to its end under `ChildProcessRunner` with `{size}` and `{pid}` filled in, the one server is
/// kept across sizes, and a command that fails is the user's to fix, worded with how it ended
/// and its last lines.
@Suite(.serialized) struct ServerResizeTests {
    /// A measurer of `poolsize serve` whose size `resize` sets.
    static func measurer(resize: String, pids: String) throws -> ServerTrialMeasurer {
        let command = try ServerCommand(
            "sh -c 'echo $$ >> \(pids); exec \(ServerTrialMeasurerTests.poolsize) serve --threads 2 --port {port} --cpu 1ms --quiet'",
            allowsNoSize: true)
        return ServerTrialMeasurer(
            command: command, url: try ServerURL("http://127.0.0.1:{port}/", server: command), connections: 4,
            readyTimeoutSeconds: 30, resize: ServerResize(.command(try ServerCommand(resize: resize)), settleSeconds: 0)
        ) { url throws(PoolSizeError) in try HTTPTarget(url: url) }
    }

    /// Two sizes, one server: the command ran once per size, given the server's pid.
    @Test func theCommandSetsEachSizeOnTheOneServer() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let log = scripted.pids + ".resize"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let measurer = try Self.measurer(resize: "sh -c 'echo {size} {pid} >> \(log)'", pids: scripted.pids)
        defer { measurer.sweepEnded() }
        for size in [1, 3] {
            let metrics = try measurer.measure(ServerTrialMeasurerTests.trial(size: size), cores: 2, readRatio: 0.5)
                .metrics
            #expect(metrics.invalidReason == nil)
        }
        let server = try #require(scripted.recordedPIDs.first)
        #expect(scripted.recordedPIDs.count == 1, "the server was restarted")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "1 \(server)\n3 \(server)\n")
        measurer.sweepEnded()
        #expect(scripted.leftovers.isEmpty)
    }

    /// A command that fails stops the sweep naming the setting, how it ended and what it said.
    @Test func aFailingCommandNamesHowItEndedAndItsLastLines() throws {
        let scripted = try ScriptedServer()
        defer { scripted.cleanUp() }
        let measurer = try Self.measurer(
            resize: "sh -c 'echo cannot resize to {size} >&2; exit 3'", pids: scripted.pids)
        defer { measurer.sweepEnded() }
        let message = ServerTrialMeasurerTests.failure {
            _ = try measurer.measure(ServerTrialMeasurerTests.trial(size: 2), cores: 2, readRatio: 0.5)
        }
        #expect(
            message
                == "error: `resize`: exited with status 3 setting the size to 2; its last lines on stderr: 'cannot resize to 2'; fix the command or drop it"
        )
        measurer.sweepEnded()
        #expect(scripted.leftovers.isEmpty)
    }
}
