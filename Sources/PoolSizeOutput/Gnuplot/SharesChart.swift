import PoolSizeObserve

/// An observed pool's time shares over the observation, stacked to 100%: running and runnable
/// at the bottom (schedstat's exact C and Q), then blocked in IO, ambiguous and idle (the
/// off-CPU time split by samples). One chart per pool the report details. Each slice is drawn
/// as a flat step from its start to its end, so a chart of one slice still shows it.
package enum SharesChart {
    /// The stacked series, bottom first, with their colours and legend titles.
    static let series: [(kind: ShareKind, color: String, title: String)] = [
        (.running, GnuplotScript.color(0), "running (on a CPU)"),
        (.runnable, GnuplotScript.color(1), "runnable (waiting for a CPU)"),
        (.blockedIO, GnuplotScript.color(2), "blocked in IO"),
        (.ambiguous, GnuplotScript.color(3), "ambiguous (futex, sleeps)"),
        (.idle, "#c7c7c7", "idle (waiting for work)"),
    ]

    /// The chart of every pool in `pools`, named `shares-<stem>`.
    package static func charts(_ run: ObservationRun, pools: [PoolEstimate]) -> [Chart] {
        let stems = run.fileStems
        return pools.compactMap { pool in stems[pool.name].flatMap { chart(pool, stem: $0, run: run) } }
    }

    static func chart(_ pool: PoolEstimate, stem: String, run: ObservationRun) -> Chart? {
        let slices = pool.timeline.filter { $0.shares != nil && $0.endSeconds > $0.startSeconds }
        guard !slices.isEmpty else { return nil }
        let name = "shares-" + stem
        let caption = "Where the threads of pool \(pool.name) spent their time"
        let headline = run.headline
        var data =
            GnuplotScript.comment(
                "pool \(pool.name): shares of its thread time per slice, in percent; each slice twice (its start and "
                    + "its end)"
            ) + "\n"
        data += "# time_s  running_pct  runnable_pct  blocked_io_pct  ambiguous_pct  idle_pct  threads\n"
        for slice in slices {
            guard let shares = slice.shares else { continue }
            let values =
                series.map { GnuplotScript.number(shares[$0.kind] * 100) } + [GnuplotScript.number(slice.meanThreads)]
            data += GnuplotScript.rows([
                [GnuplotScript.number(slice.startSeconds)] + values, [GnuplotScript.number(slice.endSeconds)] + values,
            ])
        }
        var plots: [String] = []
        var below = "0"
        for (index, entry) in series.enumerated() {
            let above = (2...(index + 2)).map { "$\($0)" }.joined(separator: "+")
            let source = index == 0 ? "dir.\(GnuplotScript.quote(name + ".dat"))" : "''"
            plots.append(
                "\(source) using 1:(\(below)):(\(above)) with filledcurves lc rgb '\(entry.color)' title "
                    + "\(GnuplotScript.quote(entry.title)) noenhanced"
            )
            below = above
        }
        var body = [
            GnuplotScript.title(caption, headline),
            "set xlabel 'seconds since the first sweep'",
            "set ylabel 'share of the pool''s thread time (%)'",
            "set grid front",
            "set xrange [0:\(GnuplotScript.number(max(slices.last?.endSeconds ?? 1, 0.001)))]",
            "set yrange [0:100]",
            "set style fill solid 0.9 noborder",
        ]
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        let length = ObservationEstimator.sliceSeconds(durationSeconds: run.observation.durationSeconds)
        let note =
            "Each step is \(length == 1 ? "a second" : "\(GnuplotScript.number(length)) seconds") of the observation. "
            + "Running and runnable are the threads' exact CPU and run-queue time (schedstat); blocked in IO, "
            + "ambiguous and idle split the rest of their time by what the sweeps in that step found them blocked "
            + "in, so a step rests on few samples and moves more than the whole observation's shares, which carry "
            + "the intervals."
        return Chart(
            name: name, caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: name, caption: caption, headline: headline,
                dataComment: ["Data: \(name).dat (two rows per slice: its start and its end)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: name + ".dat", text: data)])
    }
}
