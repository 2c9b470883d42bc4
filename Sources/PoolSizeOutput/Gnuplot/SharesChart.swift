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
        plots(run, pools: pools).map(GnuplotScript.render)
    }

    /// The descriptions of the charts of every pool in `pools`, before rendering.
    package static func plots(_ run: ObservationRun, pools: [PoolEstimate]) -> [PlotSpec] {
        let stems = run.fileStems
        return pools.compactMap { pool in stems[pool.name].flatMap { plot(pool, stem: $0, run: run) } }
    }

    static func plot(_ pool: PoolEstimate, stem: String, run: ObservationRun) -> PlotSpec? {
        let slices = pool.timeline.filter { $0.shares != nil && $0.endSeconds > $0.startSeconds }
        guard !slices.isEmpty else { return nil }
        let name = "shares-" + stem
        let caption = "Where the threads of pool \(pool.name) spent their time"
        let data = PlotData(
            name: name + ".dat",
            header: [
                "pool \(pool.name): shares of its thread time per slice, in percent; each slice twice (its start and "
                    + "its end)",
                "time_s  running_pct  runnable_pct  blocked_io_pct  ambiguous_pct  idle_pct  threads",
            ],
            blocks: [
                PlotData.Block(
                    rows: slices.flatMap { slice -> [[PlotCell]] in
                        guard let shares = slice.shares else { return [] }
                        let values =
                            series.map { PlotCell.number(shares[$0.kind] * 100) } + [.number(slice.meanThreads)]
                        return [[.number(slice.startSeconds)] + values, [.number(slice.endSeconds)] + values]
                    })
            ])
        // Each band runs from the sum of the shares below it to that sum plus its own.
        let bands = series.enumerated().map { index, entry in
            PlotSeries(
                index == 0 ? .file(data.name) : .sameFile,
                columns: [.column(1), .sum(Array(2..<(index + 2))), .sum(Array(2...(index + 2)))],
                style: PlotStyle(.filledcurves, color: entry.color), title: .literal(entry.title))
        }
        let settings: [PlotSetting] = [
            .label(.x, "seconds since the first sweep"),
            .label(.y, "share of the pool's thread time (%)"),
            .grid(.front),
            .range(.x, low: 0, high: max(slices.last?.endSeconds ?? 1, 0.001)),
            .range(.y, low: 0, high: 100),
            .fill(opacity: 0.9, border: nil),
        ]
        // From the data: an observation recorded under an older slicing rule keeps its own steps.
        let length =
            slices.first.map { $0.endSeconds - $0.startSeconds }
            ?? ObservationEstimator.sliceSeconds(durationSeconds: run.observation.durationSeconds)
        let note =
            "Each step is \(length == 1 ? "a second" : "\(GnuplotScript.number(length)) seconds") of the observation. "
            + "Running and runnable are the threads' exact CPU and run-queue time (schedstat); blocked in IO, "
            + "ambiguous and idle split the rest of their time by what the sweeps in that step found them blocked "
            + "in, so a step rests on few samples and moves more than the whole observation's shares, which carry "
            + "the intervals."
        return PlotSpec(
            name: name, caption: caption, headline: run.headline, note: note,
            dataNote: "Data: \(name).dat (two rows per slice: its start and its end).", settings: settings,
            series: bands, data: [data])
    }
}
