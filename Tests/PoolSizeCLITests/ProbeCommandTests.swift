import ArgumentParser
import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import Testing

/// Parsing and validation of `probe`, `calibrate` and the hidden `_child`, in-process: every
/// case here fails before anything is measured.
@Suite struct ProbeCommandTests {
    @Test func noNameRunsEveryProbe() throws {
        #expect(try ProbeCommand.parse([]).selectedProbes() == ProbeName.allCases)
    }

    @Test func namedProbesRunInOrderOnce() throws {
        #expect(
            try ProbeCommand.parse(["deadlock", "Nice", "deadlock", "round-robin"]).selectedProbes() == [
                .deadlock, .nice, .roundRobin,
            ])
        #expect(try ProbeCommand.parse(["serial-threads", "--format", "json"]).format == .json)
        #expect(try ProbeCommand.parse(["--watchdog-ms", "500"]).watchdogSeconds() == 0.5)
    }

    @Test(arguments: [
        (
            ["probe", "bogus"],
            "error: probe: unknown probe 'bogus'; use one of nice, serial-threads, global-ramp, deadlock, round-robin, semaphore"
        ),
        (
            ["probe", "nice", "dead-lock"],
            "error: probe: unknown probe 'dead-lock'; use one of nice, serial-threads, global-ramp, deadlock, round-robin, semaphore"
        ),
        (["probe", "--watchdog-ms", "5"], "error: --watchdog-ms: must be 100 to 30000, got 5"),
        (
            ["calibrate", "--rounds", "2"],
            "error: --rounds: must be 3 to 50, got 2; 3 gives a spread, 7 a steadier median"
        ),
        (["calibrate", "--round-ms", "0"], "error: --round-ms: must be 1 to 1000, got 0"),
        (
            ["calibrate", "--out", "/tmp/"],
            "error: --out: '/tmp/' is a directory; pass a file path such as /tmp/calibrate.csv"
        ),
        (
            ["calibrate", "--out", "/tmp"],
            "error: --out: '/tmp' is a directory; pass a file path such as /tmp/calibrate.csv"
        ),
        (
            ["_child", "explode"],
            "error: _child: unknown mode 'explode'; use one of sync-on-own-queue, hang, trap, returns"
        ),
    ])
    func badInputGetsOneLineAndExit64(arguments: [String], message: String) {
        let result = runCLI(arguments)
        #expect(result.code == 64)
        #expect(result.errors == [message])
    }

    @Test func badFormatIsOneLine() {
        let result = runCLI(["probe", "--format", "xml"])
        #expect(result.code == 64)
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.hasPrefix("error: The value 'xml' is invalid for '--format <format>'") == true)
        #expect(result.errors.first?.hasSuffix("(see 'poolsize probe --help')") == true)
    }

    /// An unwritable CSV path fails with exit 73 before any measurement.
    @Test func unwritableCalibrationCSVFailsFirst() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-notadir-\(UUID())")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI(["calibrate", "--quiet", "--out", file.appendingPathComponent("cal.csv").path])
        #expect(result.code == 73)
        #expect(result.errors.first?.hasPrefix("error: cannot write \(file.path)/cal.csv: ") == true)
    }

    @Test func calibrateDefaults() throws {
        let command = try CalibrateCommand.parse([])
        #expect(command.rounds == 7)
        #expect(command.roundMilliseconds == 20)
        #expect(command.format == .table)
        let settings = try command.makeSettings()
        #expect(settings.rounds == 7)
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(
            try command.csvURL(date: date).path == FileManager.default.currentDirectoryPath
                + "/results/calibrate-20261118-110640.csv")
    }

    @Test func helpListsTheNewCommandsButHidesTheChild() {
        let help = PoolSizeCommand.helpMessage()
        #expect(help.contains("calibrate"))
        #expect(help.contains("probe"))
        #expect(!help.contains("_child"))
        let probeHelp = PoolSizeCommand.helpMessage(for: ProbeCommand.self)
        for name in ProbeName.allCases { #expect(probeHelp.contains(name.rawValue)) }
    }
}
