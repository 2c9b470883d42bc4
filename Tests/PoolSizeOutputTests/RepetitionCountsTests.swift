import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// What a run says of its repetitions is what it measured: an adaptive search that repeats only
/// the sizes near the knee must not be reported as "5 per size", its single-repetition sizes
/// show no spread, and the chart's bars say how many repetitions they span.
@Suite struct RepetitionCountsTests {
    /// The single fixture with `--repeat 5` asked, 5 repetitions at 6 and 8, 1 at the other five sizes.
    static var searched: RunData {
        var run = ReportFixtures.single
        run.records = [1, 2, 4, 6, 8, 10, 12].flatMap { size in
            let reps = [6, 8].contains(size) ? [1, 2, 3, 4, 5] : [1]
            return reps.map { ReportFixtures.record(size, rep: $0) }
        }
        run.info?.plan?.repetitions = 5
        return run
    }

    @Test func phrasesSayWhatWasMeasured() {
        let summaries = RunAnalysis(Self.searched).summaries
        let counts = RepetitionCounts(asked: 5, summaries: summaries)
        #expect(counts.sizesByCount == [5: 2, 1: 5])
        #expect(counts.measuredOnce == 5 && counts.sizes == 7 && counts.uniform == nil)
        #expect(counts.phrase == "5 asked per size, measured 5 at 2 sizes and 1 at 5 sizes")
        #expect(counts.chartPhrase == "of 1–5 reps per size")
        let all = RepetitionCounts(asked: 2, summaries: RunAnalysis(ReportFixtures.single).summaries)
        #expect(all.phrase == "2 per size" && all.chartPhrase == "of 2 reps" && all.measuredOnce == 0)
        let fewer = RepetitionCounts(asked: 3, summaries: RunAnalysis(ReportFixtures.single).summaries)
        #expect(fewer.phrase == "3 asked per size, measured 2 at 7 sizes")
    }

    /// The report's machine table, its measurement table, its chart label and its caveats.
    @Test func theReportStatesTheRepetitionsEachSizeHas() throws {
        let text = ReportTests.markdown(Self.searched)
        #expect(text.contains("| repetitions | 5 asked per size, measured 5 at 2 sizes and 1 at 5 sizes, 1 warm-up |"))
        #expect(!text.contains("5 per size"))
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| 1 |") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[2] == "–" && cells[3] == "–", "\(row)")
        let measuredTwice = try #require(text.split(separator: "\n").first { $0.hasPrefix("| 8 |") })
        #expect(measuredTwice.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[2] != "–")
        #expect(
            text.contains(
                "**5 of 7 sizes measured once** (5 asked per size, measured 5 at 2 sizes and 1 at 5 sizes): the search repeats only the sizes its decisions rest on"
            ))
        let analysis = RunAnalysis(Self.searched)
        let chart = try #require(ThroughputChart.chart(analysis))
        #expect(chart.script.contains("mean, bars min–max of 1–5 reps per size"))
        #expect(!chart.script.contains("of 5 reps"))
    }

    /// The console prints – for the spread of a size measured once, never 0.
    @Test func theConsoleShowsNoSpreadForOneRepetition() throws {
        let analysis = RunAnalysis(Self.searched)
        let table = ConsoleSummary.table(analysis.summaries, recommendation: nil)
        let lines = table.split(separator: "\n")
        let one = try #require(lines.first { $0.hasPrefix("1 ") })
        #expect(one.split(separator: " ", omittingEmptySubsequences: true)[2] == "–", "\(one)")
        let six = try #require(lines.first { $0.hasPrefix("6 ") })
        #expect(six.split(separator: " ", omittingEmptySubsequences: true)[2] != "–", "\(six)")
    }

    /// A server loaded by a tool that printed no p99 and kept no count of its requests in flight
    /// shows – for both, never a p99 of 0 µs or 0 requests in flight; a measured size shows its own.
    @Test func theConsoleShowsNoFigureATrialDidNotRecord() throws {
        var run = ReportFixtures.single
        run.records = [4, 8].flatMap { size in
            [1, 2].map { rep in ReportFixtures.record(size, rep: rep, reached: size == 4 ? 0 : nil, latency: size != 4)
            }
        }
        let table = ConsoleSummary.table(RunAnalysis(run).summaries, recommendation: nil)
        let lines = table.split(separator: "\n")
        let four = try #require(lines.first { $0.hasPrefix("4 ") }).split(separator: " ")
        #expect(four[6] == "–" && four[7] == "–", "\(four)")
        let eight = try #require(lines.first { $0.hasPrefix("8 ") }).split(separator: " ")
        #expect(eight[6] == "6000" && eight[7] == "8", "\(eight)")
    }
}
