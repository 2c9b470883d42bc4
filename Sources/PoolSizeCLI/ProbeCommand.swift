import ArgumentParser
import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// `poolsize probe [NAME…]`: reproduce the platform claims the pool design rests on.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check the platform claims the pool design rests on, each with observed vs expected and a verdict.",
        discussion:
            "Probes: \(ProbeName.allCases.map { "\($0.rawValue) (\($0.claim))" }.joined(separator: "; ")). Verdicts: holds, differs, cannot tell. The deadlock probe runs in a child process under a watchdog, so no probe can hang the tool. Exits 0 whatever the verdicts."
    )

    @Argument(help: ArgumentHelp("Probes to run, in order (default: all).", valueName: "name"))
    var names: [String] = []

    @Option(help: "Output on stdout: table or json.")
    var format: OutputFormat = .table

    @Option(
        name: .customLong("watchdog-ms"),
        help: "How long the deadlock probe's child may block before it is killed, in milliseconds (100 to 30000).")
    var watchdogMilliseconds: Int = 2_000

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    func run() throws {
        let selected = try selectedProbes()
        let watchdog = try watchdogSeconds()
        let executable = SelfExecutable.poolsize()
        let runner = ProbeRunner(
            probes: selected.map { ProbeCatalog.probe($0, executable: executable, watchdogSeconds: watchdog) })
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        let results = runner.run { name, index, total in
            progress.update("[\(index + 1)/\(total)] probe \(name.rawValue)")
        }
        progress.finish()
        let report = ProbeReport(results: results, machine: MachineProbe.facts())
        print(format == .json ? JSONExport.serialize(report) : ProbeTable.render(report), terminator: "")
    }

    /// The probes named on the command line, in order, without repeats; all when none is named.
    func selectedProbes() throws(PoolSizeError) -> [ProbeName] {
        guard !names.isEmpty else { return ProbeName.allCases }
        var selected: [ProbeName] = []
        for name in names {
            guard let probe = ProbeName(argument: name.lowercased()) else {
                throw .invalidOption(
                    flag: "probe", message: "unknown probe '\(name)'; use one of \(ProbeName.validNames)")
            }
            if !selected.contains(probe) { selected.append(probe) }
        }
        return selected
    }

    func watchdogSeconds() throws(PoolSizeError) -> Double {
        try (100...30_000).check(watchdogMilliseconds, flag: "--watchdog-ms")
        return Double(watchdogMilliseconds) / 1_000
    }
}

extension ProbeName: ExpressibleByArgument {}
