import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// Wires a sweep's events to the export manager and the progress line. Holds no logic of its
/// own: the kit measures, the output target formats.
final class SweepSession: SweepObserver {
    let plan: SweepPlan
    let exporter: ExportManager
    let progress: ProgressLine
    let commandLine: [String]
    var facts: MachineFacts

    init(plan: SweepPlan, directory: URL, commandLine: [String], quiet: Bool) throws(PoolSizeError) {
        self.plan = plan
        self.commandLine = commandLine
        self.exporter = try ExportManager(directory: directory)
        self.progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        self.facts = MachineProbe.facts(coreOverride: plan.cores == MachineProbe.coreCount().effective ? nil : plan.cores)
    }

    func run() throws(PoolSizeError) {
        try exporter.write(JSONExport.serialize(RunInfo(plan: plan, facts: facts, commandLine: commandLine)), to: "machine.json")
        let (lowLoad, records) = try SweepRunner().run(plan, observer: self)
        progress.finish()
        let recommendation = Recommender.recommend(
            workload: plan.spec.name, records: records, lowLoad: lowLoad, cores: plan.cores,
            targetUtilization: plan.targetUtilization, tolerance: plan.tolerance, specWaitCPURatio: plan.spec.waitCPURatio)
        if let recommendation { try exporter.write(JSONExport.serialize(recommendation), to: "recommendation.json") }
        let summary = ConsoleSummary.render(spec: plan.spec, cores: facts.cores, lowLoad: lowLoad, records: records, recommendation: recommendation)
        try exporter.write(summary, to: "summary.txt")
        print(summary)
        print(exporter.directory.path)
    }

    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {
        try? exporter.write(JSONExport.serialize(estimate), to: "lowload.json")
        progress.update("W/C at low load \(Recommender.format(estimate.waitCPURatio)); sizes \(sizes.map(String.init).joined(separator: ","))")
    }

    func sweepWillRunTrial(_ index: Int, of total: Int, poolSize: Int, repetition: Int) {
        progress.trial(index, of: total, label: "size \(poolSize) rep \(repetition)")
    }

    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {
        try exporter.append(record)
    }
}

/// What `machine.json` holds: the machine and how the run was asked for (STYLE.md §11).
struct RunInfo: Encodable {
    var runID: String
    var poolsizeVersion: String
    var commandLine: [String]
    var seed: UInt64
    var workload: WorkloadSpec
    var repetitions: Int
    var warmupTrials: Int
    var machine: MachineFacts

    init(plan: SweepPlan, facts: MachineFacts, commandLine: [String]) {
        runID = plan.runID
        poolsizeVersion = PoolSizeVersion.string
        self.commandLine = commandLine
        seed = plan.seed
        workload = plan.spec
        repetitions = plan.repetitions
        warmupTrials = plan.warmupTrials
        machine = facts
    }
}

/// `[12/48] size 32 rep 2 · ETA 14s` on stderr, redrawn in place; silent when not a terminal.
final class ProgressLine {
    let enabled: Bool
    private var started = Date()

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func trial(_ index: Int, of total: Int, label: String) {
        if index == 0 { started = Date() }
        let elapsed = Date().timeIntervalSince(started)
        let eta = index > 0 ? " · ETA \(Int(elapsed / Double(index) * Double(total - index)))s" : ""
        update("[\(index + 1)/\(total)] \(label)\(eta)")
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
