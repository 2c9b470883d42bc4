import PoolSizeModel
import PoolSizeOutput
import Testing

@Suite struct SummaryCSVTests {
    static func record(_ size: Int, _ rep: Int, _ throughput: Double, primitive: PrimitiveKind = .none, integrity: Integrity = .notApplicable) -> TrialRecord {
        TrialRecord(
            runID: "r", workload: "io", pool: .queuePool, qos: .default, primitive: primitive, poolSize: size, repetition: rep,
            tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.5, peakConcurrency: size, threads: size + rep,
            effectiveNice: 0, integrity: integrity, latency: LatencyPercentiles(p50: 16000, p99: 17000 + Double(rep) * 100))
    }

    /// Throughputs 100, 102, 98 at size 4: mean 100, median 100, sd = √((0 + 4 + 4)/2) = 2,
    /// CI = 100 ± 4.302653 × 2/√3 = 100 ± 4.968275, CV 0.02. Size 8 has one repetition.
    @Test func goldenSummary() {
        let records = [Self.record(8, 1, 200), Self.record(4, 2, 102), Self.record(4, 1, 100), Self.record(4, 3, 98),
                       Self.record(4, 1, 50, primitive: .mutex, integrity: .ok), Self.record(4, 2, 52, primitive: .mutex, integrity: .violated)]
        let expected = """
            workload,pool,qos,primitive,pool_size,repetitions,throughput_mean_per_s,throughput_median_per_s,throughput_stddev_per_s,throughput_ci95_lower_per_s,throughput_ci95_upper_per_s,throughput_cv,outliers,latency_p50_us,latency_p99_us,utilization,wait_cpu_ratio,cpu_us_per_task,peak_concurrency,threads,effective_nice,integrity,voluntary_ctx_switches,involuntary_ctx_switches,other_load,errors,error_rate
            io,queue-pool,default,none,4,3,100.000,100.000,2.000,95.032,104.968,0.0200,,16000.0,17200.0,0.5000,15.0000,1000.000,4,7,0,n/a,0.0,0.0,0.0000,0,0.0000
            io,queue-pool,default,none,8,1,200.000,200.000,0.000,,,0.0000,,16000.0,17100.0,0.5000,15.0000,1000.000,8,9,0,n/a,0.0,0.0,0.0000,0,0.0000
            io,queue-pool,default,mutex,4,2,51.000,51.000,1.414,38.294,63.706,0.0277,,16000.0,17150.0,0.5000,15.0000,1000.000,4,6,0,violated,0.0,0.0,0.0000,0,0.0000

            """
        #expect(SummaryCSV.serialize(records) == expected)
    }

    @Test func flagsOutliersByRepetition() {
        let records = [10.0, 10.1, 9.9, 10.0, 50].enumerated().map { Self.record(2, $0.offset + 1, $0.element) }
        let row = SummaryCSV.serialize(records).split(separator: "\n")[1]
        #expect(row.split(separator: ",", omittingEmptySubsequences: false)[12] == "5")
    }

    @Test func contentionCSV() {
        let shares = [TierShare(qos: .utility, throughputPerSecond: 400, share: 0.4, effectiveNice: 2), TierShare(qos: .background, throughputPerSecond: 600, share: 0.6, effectiveNice: 10)]
        #expect(ContentionCSV.serialize(shares) == "qos,share,throughput_per_s,effective_nice\nutility,0.4000,400.000,2\nbackground,0.6000,600.000,10\n")
    }
}
