@testable import PoolSizeOutput
import PoolSizeModel
import Testing

@Suite struct HarnessTableTests {
    @Test func tableShowsMediansRatioAndCostAndMarksMissedTarget() {
        let points = [
            HarnessPoint(taskMicroseconds: 20, size: 4, harnessPerSecond: [65_600], referencePerSecond: [94_200]),
            HarnessPoint(taskMicroseconds: 1_000, size: 1, harnessPerSecond: [990, 1_000], referencePerSecond: [1_000]),
        ]
        // 65600/94200 = 0.696; 1/65600 − 1/94200 s = 15244 − 10616 = 4628 ns.
        // (990 + 1000)/2 = 995; 995/1000 = 0.995; 1/995 − 1/1000 s = 5025 ns.
        #expect(HarnessTable.render(points) == """
        | task C | queues | harness tasks/s | reference tasks/s | ratio | harness cost/task |
        |---:|---:|---:|---:|---:|---:|
        | 20 µs | 4 | 65600 | 94200 | 0.696 ✗ | 4628 ns |
        | 1000 µs | 1 | 995 | 1000 | 0.995 | 5025 ns |

        """)
    }
}
