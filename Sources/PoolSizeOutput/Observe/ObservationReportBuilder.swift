import PoolSizeModel
import PoolSizeObserve

/// The report of an observation (`observe --out`, `report RUN_DIR`): the pools and their
/// verdicts first, then each pool that did work with its figures, its CSV and its chart of
/// shares over time, then how the observation was made and what it could not measure. The
/// figures are the console table's (`ObservationTable`); names from the target (threads,
/// calls, peers, its command line) enter as literal text. Pure.
package enum ObservationReportBuilder {
    package static func build(
        _ run: ObservationRun, charts: [Chart], chartsRendered: Bool, plotCommand: String,
        wording: (String) -> String = { $0 }
    ) -> ReportDocument {
        let observation = run.observation
        let stems = run.fileStems
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Pools")]
        blocks.append(.paragraph(summary(run)))
        if let cut = ObservationTable.cutShort(observation) {
            blocks.append(.paragraph("**Interrupted:** " + cut + "."))
        }
        if let ended = ObservationTable.commandEnded(observation) {
            blocks.append(.paragraph("**Ended:** " + ended + "."))
        }
        for rule in observation.unmatchedGroupRules ?? [] {
            blocks.append(
                .paragraph(
                    "**Warning:** "
                        + ReportInline.literal(ObservationTable.unmatched(rule, pid: observation.target.pid) + ".")))
        }
        let rows = observation.pools.map { pool in
            [ReportInline.code(pool.name)] + ObservationTable.summaryCells(pool) + [
                stems[pool.name].map { ReportInline.code("\(RunDirectory.poolsFolder)/\($0).csv") } ?? "–"
            ]
        }
        blocks.append(
            .table(
                header: ObservationTable.summaryHeader + ["timeline"], rows: rows,
                numeric: [false, true, true, true, true, true, true, false, false]))
        if !chartsRendered && !charts.isEmpty {
            blocks.append(
                .paragraph(
                    "The charts were not rendered when this report was written (gnuplot missing or failing). Install "
                        + "gnuplot (`apt-get install --no-install-recommends gnuplot-nox`) and run \(ReportInline.code(plotCommand)); the "
                        + "links below work after that."
                ))
        }
        for pool in ObservationTable.detailed(observation) {
            blocks.append(.heading(level: 2, text: "Pool " + ReportInline.code(pool.name)))
            blocks.append(.paragraph(ReportInline.literal(ObservationTable.threadsLine(pool, escape: { $0 }))))
            let figures = ObservationTable.detailRows(
                pool, cores: observation.cores, utilization: observation.settings.targetUtilization,
                observedSeconds: observation.durationSeconds, escape: { $0 })
            blocks.append(
                .table(
                    header: ["figure", "value"],
                    rows: figures.filter { $0.0 != "verdict" }.map { [$0.0, ReportInline.literal($0.1)] },
                    numeric: [false, false]))
            blocks.append(
                .paragraph(
                    "**Verdict:** "
                        + ReportInline.literal(ObservationVerdictText.sentence(pool, cores: observation.cores)) + "."))
            if let stem = stems[pool.name], let chart = charts.first(where: { $0.name == "shares-" + stem }) {
                blocks.append(.chart(name: chart.name, caption: ReportInline.literal(chart.caption), note: chart.note))
            }
        }
        if let note = ObservationTable.undetailed(observation) {
            blocks.append(.paragraph(note + "; observation.json and the CSV files hold every pool in full."))
        }
        blocks += facts(run)
        blocks.append(.heading(level: 2, text: "What could not be measured"))
        blocks.append(
            observation.limits.isEmpty
                ? .paragraph(
                    "Nothing: every thread's CPU, run-queue time, state and blocking call were readable throughout.")
                : .bullets(observation.limits.map { ReportInline.literal(wording($0.message)) }))
        blocks.append(
            .paragraph(
                "How observe measures, and what its verdicts mean: docs/guide/observe.md. Written by poolsize from the "
                    + "files in this run directory; regenerate with `poolsize report RUN_DIR`."
            ))
        return ReportDocument(title: "Pools of " + ReportInline.literal(run.headline), blocks: blocks)
    }

    /// One paragraph: what was observed, for how long, how often, on how many cores.
    static func summary(_ run: ObservationRun) -> String {
        let observation = run.observation
        let sampler = observation.sampler
        var text = "Observed pid \(observation.target.pid)"
        if !observation.target.command.isEmpty {
            text += " (" + ReportInline.code(String(observation.target.command.prefix(200))) + ")"
        }
        if observation.target.startedByObserver { text += ", started by observe" }
        if observation.target.includesChildren { text += ", with its children" }
        text +=
            ", for \(UnitFormat.duration(observation.durationSeconds)): \(ObservationTable.sweeps(sampler))."
        text +=
            " Sizes are N = cores × U × (1 + W/C) with \(observation.cores.effective) "
            + "core\(observation.cores.effective == 1 ? "" : "s") and U = "
            + "\(UnitFormat.number(observation.settings.targetUtilization)); W/C is a range from known IO alone to "
            + "known IO plus the ambiguous waits (futex, sleeps, waits on pipes, wake-ups or clients' connections), "
            + "which cannot be told from idleness from outside. A pool of a runtime with an interpreter lock (CPython, "
            + "Ruby) uses one per process instead of the cores."
        return text
    }

    static func facts(_ run: ObservationRun) -> [ReportDocument.Block] {
        let observation = run.observation
        let sampler = observation.sampler
        var rows: [[String]] = []
        rows.append([
            "target",
            "pid \(observation.target.pid)"
                + (observation.target.command.isEmpty ? "" : " " + ReportInline.code(observation.target.command)),
        ])
        rows.append([
            "cores",
            "\(observation.cores.effective) ("
                + (observation.cores.override != nil
                    ? "--parallelism \(observation.cores.effective)"
                    : ReportInline.literal(observation.cores.derivation)) + ")",
        ])
        rows.append([
            "observed",
            "\(UnitFormat.duration(observation.durationSeconds)), \(sampler.sweeps) sweeps, \(sampler.threadReads) "
                + "thread reads",
        ])
        rows.append([
            "observer's cost",
            "\(UnitFormat.percentOneDecimal(sampler.fractionOfOneCore)) of one core "
                + "(\(UnitFormat.duration(Double(sampler.samplerCPUNanoseconds) / 1e9)) CPU, "
                + "\(UnitFormat.duration(sampler.nanosecondsPerThreadRead / 1e9)) per thread read)"
                + (sampler.boundaryFractionOverPromise.map(ObservationTable.boundaryNote) ?? ""),
        ])
        if let process = ObservationTable.processLine(observation) { rows.append(["process CPU", process]) }
        if let pressure = observation.cpuPressureSomePercent {
            rows.append(["machine CPU pressure", "\(UnitFormat.number(pressure))% (PSI some avg10, at the end)"])
        }
        let settings = observation.settings
        if !settings.groupRules.isEmpty {
            rows.append([
                "grouping",
                settings.groupRules.map { ReportInline.code($0.text) }.joined(separator: ", "),
            ])
        }
        if let rate = settings.throughputPerSecond {
            var text =
                UnitFormat.rate(rate) + " through "
                + (settings.throughputPool.map(ReportInline.code) ?? "the pool using the most CPU")
            if let latency = settings.latencySeconds {
                text += ", \(UnitFormat.duration(latency)) in the pool per task"
            }
            rows.append(["task rate", text])
        }
        if let counter = settings.counter {
            var text =
                ReportInline.code(counter.command) + ": \(UnitFormat.number(counter.first)) at the start, "
                + "\(UnitFormat.number(counter.last)) at the end, \(UnitFormat.duration(counter.seconds)) apart"
            if counter.wentDown == true {
                text += "; the total went down (the counter restarted), so no task rate was taken from it"
            }
            rows.append(["task counter", text])
        }
        if let info = run.info {
            if let command = info.commandLine, !command.isEmpty {
                rows.append(["command", ReportInline.code(ShellWords.join(["poolsize"] + command.dropFirst()))])
            }
            rows.append(["seed", String(info.seed)])
            if let version = info.poolsizeVersion { rows.append(["poolsize", ReportInline.literal(version)]) }
            if let machine = info.machine {
                for (fact, value) in [
                    ("CPU", machine.cpuModel), ("kernel", machine.kernel), ("host", machine.hostname),
                ] where !value.isEmpty {
                    rows.append([fact, ReportInline.literal(value)])
                }
            }
        }
        rows.append(["run", ReportInline.code(run.runID)])
        return [
            .heading(level: 2, text: "Observation"),
            .table(header: ["fact", "value"], rows: rows, numeric: [false, false]),
        ]
    }
}
