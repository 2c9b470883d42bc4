import PoolSizeModel
import Testing
import PoolSizeAnalysis

/// A run with one workload ("io") measured on `cores` cores, one entry per pool size.
private func run(
    _ id: String, cores: Int = 2, workload: String = "io", cpu: Double = 1000, _ sizes: [Int: ([Double], [Double])]
) -> RunSamples {
    var samples: [RunConfiguration: RunSamples.Samples] = [:]
    for (size, values) in sizes {
        samples[
            RunConfiguration(
                workload: workload, combination: Combination(pool: .queuePool, qos: .default, primitive: .none),
                poolSize: size)] =
            RunSamples.Samples(throughputPerSecond: values.0, latencyP99Microseconds: values.1)
    }
    return RunSamples(
        runID: id, cores: cores, workload: WorkloadSpec(name: workload, cpuMicroseconds: cpu, waitMicroseconds: 15000),
        samples: samples)
}

@Suite struct RunComparatorTests {
    static let steadyLatency = [20_000.0, 20_400, 19_600]

    @Test func twentyPercentThroughputDropWithThreeRepetitionsIsARegression() throws {
        // 3 + 3 repetitions: Mann–Whitney cannot go below p = 0.1, so the 95% t-intervals decide.
        // Base mean 1000, sd 10: 1000 ± 4.303·10/√3 = [975.2, 1024.8]. Current mean 800, sd 8:
        // [780.1, 819.9]. Apart, and the medians moved (800 − 1000)/1000 = −20% < −5%.
        let base = run("b", [32: ([1000, 1010, 990], Self.steadyLatency)])
        let current = run("c", [32: ([800, 808, 792], Self.steadyLatency)])
        let result = try RunComparator.compare(base: base, current: current, threshold: 0.05)
        let row = try #require(result.configurations.first)
        let throughput = try #require(row.throughput)
        #expect(throughput.relativeChange == -0.2)
        #expect(throughput.test == .confidenceIntervals)
        #expect(throughput.significant)
        #expect(throughput.verdict == .regression)
        #expect(row.latencyP99?.verdict == .unchanged)
        #expect(row.verdict == .regression)
        #expect(result.verdict == .regression)
        #expect(result.regressions == 1)
        #expect(
            result.summary
                == "1 of 1 configuration regressed: throughput -20.0% at queue-pool/default/none/32 (95% intervals apart)"
        )
    }

    @Test func fiveRepetitionsUseMannWhitney() throws {
        // 5 + 5, fully separated, no ties: exact p = 2/C(10, 5) = 2/252 = 0.0079 < 0.05.
        let base = run("b", [8: ([1000, 1004, 996, 1008, 992], [])])
        let current = run("c", [8: ([800, 804, 796, 808, 792], [])])
        let throughput = try #require(
            try RunComparator.compare(base: base, current: current, threshold: 0.05).configurations.first?.throughput)
        #expect(throughput.test == .mannWhitney)
        #expect(abs(throughput.pValue! - 2.0 / 252) < 1e-12)
        #expect(throughput.verdict == .regression)
    }

    @Test func noiseIsNotARegression() throws {
        // Medians 1000 → 990: −1%, inside the 5% threshold, whatever the test says.
        let small = try RunComparator.compare(
            base: run("b", [4: ([1000, 1030, 970], Self.steadyLatency)]),
            current: run("c", [4: ([990, 1020, 960], Self.steadyLatency)]), threshold: 0.05)
        #expect(small.configurations.first?.throughput?.verdict == .unchanged)
        #expect(small.verdict == .unchanged)
        #expect(small.summary == "No regression in 1 configuration beyond the 5% threshold.")
        // Medians 1000 → 920 (−8%) but the spread is wide: base 1000 ± 4.303·200/√3 = ±496.9 and
        // current 906.7 ± 4.303·200.3/√3 overlap, so the drop is within the noise.
        let noisy = try RunComparator.compare(
            base: run("b", [4: ([1000, 1200, 800], [])]), current: run("c", [4: ([920, 1100, 700], [])]),
            threshold: 0.05)
        let throughput = try #require(noisy.configurations.first?.throughput)
        #expect(throughput.relativeChange == -0.08)
        #expect(!throughput.significant)
        #expect(throughput.verdict == .inconclusive)
        #expect(noisy.verdict == .unchanged)
        #expect(
            noisy.notes.contains(
                "1 change(s) beyond the threshold are within the noise of the repetitions (3 at most); more repetitions (`repetitions` 6) would settle them."
            ))
        // Runs of 5 repetitions are not advised to use 5: twice as many.
        let five = try RunComparator.compare(
            base: run("b", [4: ([1000, 1200, 800, 1100, 900], [])]),
            current: run("c", [4: ([920, 1100, 700, 1000, 850], [])]), threshold: 0.05)
        #expect(
            five.notes.contains(
                "1 change(s) beyond the threshold are within the noise of the repetitions (5 at most); more repetitions (`repetitions` 10) would settle them."
            ), "\(five.notes)")
    }

    @Test func higherP99LatencyIsARegressionAndHigherThroughputAnImprovement() throws {
        let base = run("b", [16: ([1000, 1010, 990], Self.steadyLatency)])
        let current = run("c", [16: ([1200, 1212, 1188], [26_000, 26_500, 25_500])])
        let row = try #require(
            try RunComparator.compare(base: base, current: current, threshold: 0.05).configurations.first)
        #expect(row.throughput?.verdict == .improvement)
        #expect(row.latencyP99?.relativeChange == 0.3)  // 20 000 → 26 000 µs
        #expect(row.latencyP99?.verdict == .regression)
        #expect(row.verdict == .regression)
    }

    @Test func aSingleRepetitionCannotBeTested() throws {
        let result = try RunComparator.compare(
            base: run("b", [1: ([1000], [])]), current: run("c", [1: ([800], [])]), threshold: 0.05)
        #expect(result.configurations.first?.throughput?.test == SignificanceTest.none)
        #expect(result.configurations.first?.throughput?.verdict == .untested)
        #expect(result.verdict == .unchanged)
        #expect(result.notes.contains { $0.hasPrefix("1 change(s) beyond the threshold could not be tested") })
    }

    @Test func thresholdIsAParameter() throws {
        // −20% with a 25% threshold is not a regression.
        let result = try RunComparator.compare(
            base: run("b", [32: ([1000, 1010, 990], [])]), current: run("c", [32: ([800, 808, 792], [])]),
            threshold: 0.25)
        #expect(result.verdict == .unchanged)
    }

    @Test func partialOverlapIsComparedAndReported() throws {
        let base = run("b", [1: ([100, 101, 99], []), 2: ([200, 202, 198], [])])
        let current = run("c", [2: ([200, 201, 199], []), 4: ([400, 404, 396], [])])
        let result = try RunComparator.compare(base: base, current: current, threshold: 0.05)
        #expect(result.configurations.map(\.configuration.poolSize) == [2])
        #expect(result.onlyInBase.map(\.poolSize) == [1])
        #expect(result.onlyInCurrent.map(\.poolSize) == [4])
        #expect(
            result.notes.contains("1 configuration(s) only in the base run, not compared: queue-pool/default/none/1."))
    }

    @Test(arguments: [
        (
            run("b", [1: ([1], [])]), run("c", workload: "cpu", [1: ([1], [])]),
            "error: runs cannot be compared: different workloads: base b measured io, current c measured cpu; compare two runs of the same workload"
        ),
        (
            run("b", [1: ([1], [])]), run("c", cores: 4, [1: ([1], [])]),
            "error: runs cannot be compared: different cores: base b ran on 2 effective cores, current c on 4; compare runs on the same machine shape, or rerun with `cores` 2"
        ),
        (
            run("b", [1: ([1], [])]), run("c", cpu: 2000, [1: ([1], [])]),
            "error: runs cannot be compared: workload 'io' is not the same in both runs (cpu 1000 µs vs 2000 µs); compare runs of the same spec"
        ),
        (
            run("b", [1: ([1], []), 2: ([1], [])]), run("c", [8: ([1], [])]),
            "error: runs cannot be compared: no configuration is in both runs: base measured queue-pool/default/none at sizes 1, 2, current measured queue-pool/default/none at sizes 8"
        ),
        (
            run("b", [:]), run("c", [8: ([1], [])]),
            "error: runs cannot be compared: the base run b has no finished trials"
        ),
    ])
    func incomparableRunsAreRefused(base: RunSamples, current: RunSamples, message: String) {
        #expect(throws: PoolSizeError.self) { try RunComparator.compare(base: base, current: current, threshold: 0.05) }
        do {
            _ = try RunComparator.compare(base: base, current: current, threshold: 0.05)
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 3)
        }
    }
}
