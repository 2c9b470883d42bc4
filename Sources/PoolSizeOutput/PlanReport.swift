import PoolSizeModel
import PoolSizeAnalysis

/// `poolsize plan`'s console table: each figure, its value and how it was worked out, then the
/// assumptions in plain words. Pure: plan in, text out. `--format json` is
/// `JSONExport.serialize(plan)`.
package enum PlanReport {
    package static func render(_ plan: CapacityPlan) -> String {
        let (w, c) = (UnitFormat.duration(plan.waitSeconds), UnitFormat.duration(plan.cpuSeconds))
        let u = UnitFormat.number(plan.targetUtilization)
        let cores = "\(plan.coresPerHost) cores"
        let source = plan.source == "declared" ? "declared" : "measured in \(TerminalText.escape(plan.source))"
        var out =
            "capacity plan for \(UnitFormat.rate(plan.targetRatePerSecond)): W \(w), C \(c) (W/C \(UnitFormat.number(plan.waitCPURatio)), \(source)), \(cores) per host, U \(u)\n\n"

        var rows: [[String]] = [
            [
                "threads per host", String(plan.threadsPerHost),
                "\(cores) × U \(u) × (1 + W/C \(UnitFormat.number(plan.waitCPURatio))) = \(UnitFormat.number(plan.threadsExact)), rounded up (Goetz)",
            ],
            [
                "hosts", String(plan.hosts),
                "\(UnitFormat.rate(plan.targetRatePerSecond)) × (1 + \(UnitFormat.percent(plan.headroom)) headroom) ÷ \(UnitFormat.rate(plan.capacityPerHostPerSecond)) per host (\(cores) × U \(u) ÷ C) = \(UnitFormat.number(plan.targetRatePerSecond * (1 + plan.headroom) / plan.capacityPerHostPerSecond)), rounded up",
            ],
            [
                "CPU utilization", UnitFormat.percent(plan.utilization),
                "per host: \(UnitFormat.rate(plan.ratePerHostPerSecond)) × C \(c) ÷ \(cores)",
            ],
        ]
        if let q = plan.queue {
            let pName = "p\(UnitFormat.number(q.responsePercentile))"
            rows += [
                [
                    "tasks in system", UnitFormat.number(q.tasksInSystemPerHost),
                    "per host, Little's law L = λ(W + C + Wq) = \(UnitFormat.rate(plan.ratePerHostPerSecond)) × \(UnitFormat.duration(q.meanResponseSeconds)); \(UnitFormat.number(q.tasksInSystemTotal)) over all hosts",
                ],
                ["queued for a core", UnitFormat.number(q.tasksQueuedForCPUPerHost), "per host, Lq = λ·Wq"],
                [
                    "P(wait for a core)", UnitFormat.percent(q.waitProbability),
                    "Erlang C: \(cores) offered \(UnitFormat.number(q.busyCores)) erlangs (M/M/c)",
                ],
                ["mean queueing delay", UnitFormat.duration(q.meanQueueingDelaySeconds), "Wq = C(c, a) ÷ (c/C − λ)"],
                ["mean response time", UnitFormat.duration(q.meanResponseSeconds), "W + C + Wq"],
                [
                    "\(pName) response time", UnitFormat.duration(q.responsePercentileSeconds),
                    "W + C + \(pName) of the wait for a core (\(UnitFormat.duration(q.responsePercentileSeconds - plan.waitSeconds - plan.cpuSeconds)))",
                ],
                [
                    "P(all threads busy)", UnitFormat.percent(q.threadWaitProbability),
                    "Erlang C: \(plan.threadsPerHost) threads offered \(UnitFormat.number(q.tasksInSystemPerHost)) erlangs",
                ],
            ]
        } else {
            rows.append([
                "queue for the cores", "unstable",
                "at \(UnitFormat.percent(plan.utilization)) utilization waits grow without bound",
            ])
        }
        if let slo = plan.slo {
            rows.append([
                "SLO p\(UnitFormat.number(slo.percentile)) ≤ \(UnitFormat.duration(slo.latencySeconds))",
                slo.holds ? "holds" : "fails", slo.advice,
            ])
        } else {
            rows.append(["SLO", "none", "pass --latency-slo 250ms (and --slo-percentile 99) to check one"])
        }
        if let m = plan.measured { rows += measuredRows(m, plan: plan) }
        out += table(rows)
        // Each item is one line on the terminal, whatever a run's path or CPU model holds.
        if !plan.warnings.isEmpty {
            out += "\nwarnings:\n" + plan.warnings.map { "  - \(TerminalText.escape($0))\n" }.joined()
        }
        out += "\nassumptions:\n" + plan.assumptions.map { "  - \(TerminalText.escape($0))\n" }.joined()
        return out
    }

    static func measuredRows(_ m: MeasuredComparison, plan: CapacityPlan) -> [[String]] {
        var rows: [[String]] = []
        if let lower = m.threadsPerHostLower, let upper = m.threadsPerHostUpper {
            rows.append([
                "threads, W/C 95% CI", lower == upper ? String(lower) : "\(lower)–\(upper)",
                "the formula at the ends of the run's W/C interval",
            ])
        }
        if let open = m.run.openLoop { rows.append(openLoopRow(open, run: m.run, plan: plan)) }
        // No knee yet: the run's largest size is where it stopped measuring, not where its
        // curve bent, so there is nothing to adjust the formula's threads by.
        if let largest = m.run.stillRisingAt {
            let machine = m.run.cores.map { " on \($0) cores" } ?? ""
            let recommended =
                m.run.recommendedQueueCount.map { count in
                    "; the run recommended \(count)"
                        + (m.run.formulaQueueCountExact.map { " (its formula: \(UnitFormat.number($0)))" } ?? "")
                } ?? ""
            rows.append([
                "measured knee", "none yet",
                "throughput still rose at \(largest), the largest size the run measured\(machine): no knee to adjust the threads by\(recommended); sweep larger sizes to find one",
            ])
        }
        if let knee = m.run.kneePoolSize, let formula = m.run.formulaQueueCountExact, let ratio = m.kneeToFormula,
            let adjusted = m.kneeAdjustedThreadsPerHost
        {
            let machine = m.run.cores.map { " on \($0) cores" } ?? ""
            rows.append([
                "measured knee", "\(knee)\(machine)",
                "the run's formula gave \(UnitFormat.number(formula)): knee ÷ formula = \(UnitFormat.number(ratio))",
            ])
            rows.append([
                "knee-adjusted threads", String(adjusted),
                "threads per host × \(UnitFormat.number(ratio)), if this host's curve bends like the run's",
            ])
        }
        return rows
    }

    /// What the open-loop run measured at the rate each host gets: the size it found at the
    /// lowest rate it offered that is not below it, or why it cannot say.
    static func openLoopRow(_ open: MeasuredOpenLoop, run: MeasuredRun, plan: CapacityPlan) -> [String] {
        let perHost = plan.ratePerHostPerSecond
        let objective = open.latencySLOMicroseconds.map {
            "p\(UnitFormat.number(open.sloPercentile)) ≤ \(UnitFormat.duration($0 / 1e6))"
        }
        let met = objective.map { "met \($0)" } ?? "kept up",
            meeting = objective.map { "meeting \($0)" } ?? "keeping up"
        let machine =
            (run.cores.map { " on \($0) cores" } ?? "")
            + (open.combination.map { " (\($0), the best of the combinations swept)" } ?? "")
        let otherCores =
            run.cores.map { $0 != plan.coresPerHost ? " (these hosts have \(plan.coresPerHost): measure on one)" : "" }
            ?? ""
        guard let highest = open.sizings.last else {
            return ["measured, open loop", "–", "the run recorded no size per rate"]
        }
        guard let at = open.sizing(atLeast: ArrivalRate(perSecond: perHost)) else {
            return [
                "measured, open loop", "beyond the run",
                "each host gets \(UnitFormat.rateToThousandth(perHost)); the run offered at most \(highest.arrivalRate.exactDescription)\(machine): sweep --arrival-rate \(UnitFormat.number(perHost.rounded(.up)))/s to measure it\(otherCores)",
            ]
        }
        let rate = at.arrivalRate.exactDescription
        // The run's objective, which need not be this plan's --latency-slo.
        let differs =
            plan.slo.map { slo in
                open.latencySLOMicroseconds.map {
                    abs($0 / 1e6 - slo.latencySeconds) > 1e-9 || slo.percentile != open.sloPercentile
                } ?? true
            } ?? false
        let whose = differs ? " (the run's objective)" : ""
        guard let size = at.recommendedQueueCount else {
            // A size passing at a higher rate though none did here is noise, not capacity.
            let higher = open.sizings.first { $0.arrivalRate > at.arrivalRate && $0.recommendedQueueCount != nil }
            let noise =
                higher.map {
                    "; yet \($0.recommendedQueueCount!) \(objective == nil ? "kept up" : "met it") at \($0.arrivalRate.exactDescription), so the run is noisy there: repeat it with more --repeat"
                } ?? ""
            return [
                "measured, open loop", "none met",
                "no size the run measured \(met)\(whose) at \(rate)\(machine), the lowest rate it offered not below \(UnitFormat.rateToThousandth(perHost)) per host\(otherCores)\(noise)",
            ]
        }
        let figure = at.percentileMicroseconds.map { ", measured \(UnitFormat.duration($0 / 1e6))" } ?? ""
        return [
            "measured, open loop", "\(size) threads",
            "the smallest size \(meeting)\(whose) at \(rate)\(machine)\(figure), the lowest rate the run offered not below \(UnitFormat.rateToThousandth(perHost)) per host\(otherCores)",
        ]
    }

    /// Left-aligned columns, two spaces apart (`TextTable`).
    static func table(_ rows: [[String]]) -> String {
        TextTable.render(rows, leftAligned: [0, 1, 2])
    }
}
