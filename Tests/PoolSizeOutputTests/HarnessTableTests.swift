@testable import PoolSizeOutput
import PoolSizeModel
import Testing

@Suite struct HarnessTableTests {
    @Test func tableShowsMediansRatioCostOwnQueueAndSwitches() {
        let points = [
            HarnessPoint(
                taskMicroseconds: 20, size: 4, harnessPerSecond: [65_600], referencePerSecond: [94_200],
                ownQueuePerSecond: [125_600],
                switches: [
                    .harness: SwitchTally(tasks: 1_000, voluntary: 433, involuntary: 200),
                    .reference: SwitchTally(tasks: 2_000, voluntary: 860, involuntary: 400),
                    .ownQueue: SwitchTally(tasks: 4_000, voluntary: 0, involuntary: 60),
                ]),
            HarnessPoint(
                taskMicroseconds: 1_000, size: 1, harnessPerSecond: [990, 1_000], referencePerSecond: [1_000, 980]),
        ]
        // 65600/94200 = 0.696; 1/65600 − 1/94200 s = 15244 − 10616 = 4628 ns; 94200/125600 = 0.750.
        // (990 + 1000)/2 = 995; (1000 + 980)/2 = 990; 995/990 = 1.005; per repetition 990/1000 = 0.990
        // and 1000/980 = 1.020; 1/995 − 1/990 s = −5076 ns.
        // 433/1000, 200/1000; 860/2000, 400/2000; 0/4000, 60/4000.
        #expect(
            HarnessTable.render(points) == """
                | task C | queues | harness tasks/s | reference tasks/s | ratio | ratio per repetition | harness cost/task | own-queue tasks/s | reference / own-queue |
                |---:|---:|---:|---:|---:|---:|---:|---:|---:|
                | 20 µs | 4 | 65600 | 94200 | 0.696 ✗ | 0.696 | 4628 ns | 125600 | 0.750 |
                | 1000 µs | 1 | 995 | 990 | 1.005 | 0.990–1.020 | -5076 ns | — | — |

                Context switches per task (voluntary + involuntary, getrusage over each side's runs):

                | task C | queues | harness | reference | own-queue | tasks run: harness / reference / own-queue |
                |---:|---:|---:|---:|---:|---:|
                | 20 µs | 4 | 0.433 + 0.200 | 0.430 + 0.200 | 0.000 + 0.015 | 1000 / 2000 / 4000 |
                | 1000 µs | 1 | — | — | — | — / — / — |

                """)
    }

    @Test func sidesThatDidNotRunShowDashesAndNoRatio() {
        let point = HarnessPoint(
            taskMicroseconds: 20, size: 2, harnessPerSecond: [], referencePerSecond: [90_000],
            switches: [.reference: SwitchTally(tasks: 8, voluntary: 1, involuntary: 0)])
        #expect(
            HarnessTable.render([point]).split(separator: "\n").map(String.init).filter { $0.hasPrefix("| 20 µs") } == [
                "| 20 µs | 2 | — | 90000 | — | — | — | — | — |",
                "| 20 µs | 2 | — | 0.125 + 0.000 | — | — / 8 / — |",
            ])
    }

    @Test func theAdaptiveSideAddsItsCostPerTask() {
        var point = HarnessPoint(
            taskMicroseconds: 5, size: 1, harnessPerSecond: [], referencePerSecond: [200_000, 190_000, 210_000])
        point.adaptivePerSecond = [180_000, 185_000, 175_000]
        // Medians 200000 and 180000: 1/180000 − 1/200000 s = 5556 − 5000 = 556 ns.
        let lines = HarnessTable.render([point]).split(separator: "\n").map(String.init)
        #expect(
            lines.suffix(3) == [
                "| task C | queues | reference tasks/s | adaptive tasks/s | adaptive cost/task |",
                "|---:|---:|---:|---:|---:|",
                "| 5 µs | 1 | 200000 | 180000 | 556 ns |",
            ])
        // Without the adaptive side, no such table.
        point.adaptivePerSecond = []
        #expect(!HarnessTable.render([point]).contains("adaptive"))
    }
}
