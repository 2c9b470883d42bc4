import PoolSizeModel

/// The multi-machine report as a `ReportDocument` (rendered to Markdown and HTML like a single
/// run's): the machines' figures side by side, whether the sizing formula explains how their
/// recommendations differ, and the chart. Every label from a run directory enters through
/// `ReportInline.literal`.
package enum MachinesReportBuilder {
    package static func build(_ comparison: MachineComparison, chart: Chart?) -> ReportDocument {
        let machines = comparison.machines
        let workloads = comparison.workloads
        let title = "poolsize: \(ReportInline.literal(workloads.joined(separator: ", "))) on \(machines.count) machines"
        var blocks: [ReportDocument.Block] = [
            .paragraph(
                "One sweep per machine, side by side: each machine's recommended pool size, the formula cores × U × (1 + W/C) with the W/C it measured at low load, and its throughput curve."
            )
        ]
        if workloads.count > 1 {
            blocks.append(
                .paragraph(
                    "**Mixed workloads** (\(workloads.map(ReportInline.code).joined(separator: ", "))), put side by side with `--allow-mixed`: the curves differ by workload as well as by machine, so read the formula check below as a comparison of workloads too."
                ))
        }

        blocks.append(.heading(level: 2, text: "Machines"))
        blocks.append(
            .table(
                header: [
                    "machine", "run", "workload", "cores", "CPU", "kernel", "W/C", "formula N", "recommended",
                    "tasks/s at recommended",
                ],
                rows: machines.map { m in
                    [
                        "**\(ReportInline.literal(m.label))**", ReportInline.code(m.runID),
                        ReportInline.literal(m.workload),
                        m.cores.map(String.init) ?? "–", ReportInline.literal(m.cpuModel ?? "–"),
                        ReportInline.literal(m.kernel ?? "–"),
                        UnitFormat.significant(m.waitCPURatio), UnitFormat.significant(m.formula),
                        m.recommended.map(String.init) ?? "–",
                        m.throughputAtRecommendation.map { UnitFormat.number($0) } ?? "–",
                    ]
                },
                numeric: [false, false, false, true, false, false, true, true, true, true]))

        blocks.append(.heading(level: 2, text: "Does cores × (1 + W/C) explain the differences?"))
        blocks.append(
            .paragraph(
                "Each machine against the first: the ratio of their recommendations beside the ratio of their formula values. Explained when the two ratios agree within \(UnitFormat.wholePercent(MachineComparison.tolerance)) (recommendation ratio ÷ formula ratio between \(UnitFormat.significant(1 - MachineComparison.tolerance)) and \(UnitFormat.significant(1 + MachineComparison.tolerance))): then more cores or a longer wait per task is why the size differs. Otherwise something the formula does not see sets that machine's size (a lock, memory bandwidth, the device or server behind the wait); its own report says which."
            ))
        blocks.append(
            .bullets(
                zip(machines, comparison.verdicts).map { machine, verdict in
                    sentence(machine, verdict, reference: machines[0])
                }))

        if let chart {
            blocks.append(.chart(name: chart.name, caption: chart.caption, note: chart.note))
        }
        if let mermaid = MachinesChart.mermaid(comparison) {
            blocks.append(.mermaid(mermaid))
            let order = machines.enumerated().map { "line \($0.offset + 1): \(ReportInline.literal($0.element.label))" }
            blocks.append(
                .paragraph(
                    "Mermaid lines in order (it draws no legend): \(order.joined(separator: "; ")). A machine not measured at a size shows 0 there."
                ))
        }
        return ReportDocument(title: title, blocks: blocks)
    }

    /// One bullet: the machine's verdict with the figures behind it.
    static func sentence(
        _ machine: MachineComparison.Machine, _ verdict: MachineComparison.Verdict, reference: MachineComparison.Machine
    ) -> String {
        let name = "**\(ReportInline.literal(machine.label))**"
        let sizes = "\(machine.recommended.map(String.init) ?? "–") vs \(reference.recommended.map(String.init) ?? "–")"
        let formulas = "\(UnitFormat.significant(machine.formula)) vs \(UnitFormat.significant(reference.formula))"
        switch verdict {
        case .reference:
            return
                "\(name) is the reference: recommends \(machine.recommended.map(String.init) ?? "–"), formula \(UnitFormat.significant(machine.formula)) (\(machine.cores.map(String.init) ?? "–") cores, W/C \(UnitFormat.significant(machine.waitCPURatio)))."
        case let .explained(r, f):
            return
                "\(name): recommends \(ratio(r)) the reference (\(sizes)), the formula predicts \(ratio(f)) (\(formulas)): **explained** by cores and W/C."
        case let .unexplained(r, f):
            return
                "\(name): recommends \(ratio(r)) the reference (\(sizes)), but the formula predicts \(ratio(f)) (\(formulas)): **not explained** by cores and W/C; something else limits this machine."
        case let .unknown(missing):
            return "\(name): cannot tell, the run directory lacks a \(missing)."
        }
    }

    static func ratio(_ value: Double) -> String { UnitFormat.significant(value) + "×" }
}
