import PoolSizeModel
import PoolSizeOutput
import Testing

@Suite struct SummaryCSVTests {
    static func record(
        _ size: Int, _ rep: Int, _ throughput: Double, primitive: PrimitiveKind = .none,
        integrity: Integrity = .notApplicable
    ) -> TrialRecord {
        TrialRecord(
            runID: "r", workload: "io", pool: .queuePool, qos: .default, primitive: primitive, poolSize: size,
            repetition: rep,
            tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.5, peakConcurrency: size,
            threads: size + rep,
            effectiveNice: 0, integrity: integrity,
            latency: LatencyPercentiles(p50: 16000, p99: 17000 + Double(rep) * 100))
    }

    /// Throughputs 100, 102, 98 at size 4: mean 100, median 100, sd = √((0 + 4 + 4)/2) = 2,
    /// CI = 100 ± 4.302653 × 2/√3 = 100 ± 4.968275, CV 0.02. Size 8 has one repetition.
    @Test func goldenSummary() {
        let records = [
            Self.record(8, 1, 200), Self.record(4, 2, 102), Self.record(4, 1, 100), Self.record(4, 3, 98),
            Self.record(4, 1, 50, primitive: .mutex, integrity: .ok),
            Self.record(4, 2, 52, primitive: .mutex, integrity: .violated),
        ]
        let expected = """
            workload,pool,qos,primitive,pool_size,repetitions,throughput_mean_per_s,throughput_median_per_s,throughput_stddev_per_s,throughput_ci95_lower_per_s,throughput_ci95_upper_per_s,throughput_cv,outliers,latency_p50_us,latency_p99_us,utilization,wait_cpu_ratio,cpu_us_per_task,peak_concurrency,threads,effective_nice,integrity,voluntary_ctx_switches,involuntary_ctx_switches,other_load,errors,error_rate,arrival_rate_per_s,offered_per_s,achieved_per_s,stable,backlog_mean,backlog_max,unfinished,dispatch_lag_p99_us,slo_percentile,latency_slo_us,slo_percentile_us,model_slo_percentile_us,slo_met
            io,queue-pool,default,none,4,3,100.000,100.000,2.000,95.032,104.968,0.0200,,16000.0,17200.0,0.5000,15.0000,1000.000,4,7,0,n/a,0.0,0.0,0.0000,0,0.0000,,,,,,,,,,,,,
            io,queue-pool,default,none,8,1,200.000,200.000,0.000,,,0.0000,,16000.0,17100.0,0.5000,15.0000,1000.000,8,9,0,n/a,0.0,0.0,0.0000,0,0.0000,,,,,,,,,,,,,
            io,queue-pool,default,mutex,4,2,51.000,51.000,1.414,38.294,63.706,0.0277,,16000.0,17150.0,0.5000,15.0000,1000.000,4,6,0,violated,0.0,0.0,0.0000,0,0.0000,,,,,,,,,,,,,

            """
        #expect(SummaryCSV.serialize(records) == expected)
    }

    /// Open loop: one row per rate and size (a range never mixes rates in a row), with the rate,
    /// stability, backlog and the objective's verdict; closed-loop rows leave those columns empty.
    @Test func openLoopRowsPerRateAndSize() throws {
        let run = OpenLoopFixtures.range
        let text = SummaryCSV.serialize(run.records, arrival: run.plan?.load.arrival, lowLoad: run.lowLoad)
        let lines = text.split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(header.count == SummaryCSV.columns.count)
        #expect(lines.count == 13)  // 3 rates × 4 sizes
        func cell(_ line: String, _ column: String) -> String {
            line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[
                header.firstIndex(of: column)!]
        }
        let rows = lines.dropFirst()
        #expect(
            rows.map { cell($0, "arrival_rate_per_s") } == [
                "500.000", "500.000", "500.000", "500.000", "1000.000", "1000.000", "1000.000", "1000.000", "1500.000",
                "1500.000", "1500.000", "1500.000",
            ])
        #expect(
            rows.map { cell($0, "pool_size") } == ["8", "17", "24", "32", "8", "17", "24", "32", "8", "17", "24", "32"])
        #expect(
            rows.map { cell($0, "slo_met") } == [
                "no", "yes", "yes", "yes", "no", "no", "yes", "yes", "no", "no", "no", "yes",
            ])
        #expect(
            rows.map { cell($0, "stable") } == [
                "no", "yes", "yes", "yes", "no", "yes", "yes", "yes", "no", "no", "no", "yes",
            ])
        let row = try #require(
            rows.first { cell($0, "arrival_rate_per_s") == "1000.000" && cell($0, "pool_size") == "17" })
        #expect(cell(row, "slo_percentile") == "99")
        #expect(cell(row, "latency_slo_us") == "40000.0")
        #expect(cell(row, "slo_percentile_us") == "43000.0")
        #expect(cell(row, "achieved_per_s") == "1000.000")
        #expect(cell(row, "repetitions") == "1")
        // 16 ms of the task's own p99 plus M/M/c's p99 wait for 17 queues of 16 ms at 1000/s:
        // Erlang C(17, 16) = 0.7372, so the wait passes t with probability 0.7372 e^(−62.5 t) and
        // its p99 is ln(73.72) / 62.5 s = 68.8 ms.
        #expect(cell(row, "model_slo_percentile_us") == "84804.0")
        // Below the load M/M/c has no figure: the cell is empty, not 0.
        #expect(cell(rows.first!, "model_slo_percentile_us") == "")
    }

    /// Without machine.json's plan (trials alone), rows still split by rate and judge p99 with no objective.
    @Test func openLoopWithoutAPlanNamesNoObjective() {
        let text = SummaryCSV.serialize(OpenLoopFixtures.range.records)
        let rows = text.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let at = { (name: String) in SummaryCSV.columns.firstIndex(of: name)! }
        #expect(rows.count == 12)
        #expect(
            rows.allSatisfy {
                $0[at("latency_slo_us")] == "" && $0[at("slo_met")] == "" && $0[at("slo_percentile")] == "99"
            })
        #expect(rows.allSatisfy { $0[at("model_slo_percentile_us")] == "" })
    }

    @Test func flagsOutliersByRepetition() {
        let records = [10.0, 10.1, 9.9, 10.0, 50].enumerated().map { Self.record(2, $0.offset + 1, $0.element) }
        let row = SummaryCSV.serialize(records).split(separator: "\n")[1]
        #expect(row.split(separator: ",", omittingEmptySubsequences: false)[12] == "5")
    }

    @Test func contentionCSV() {
        let shares = [
            TierShare(qos: .utility, throughputPerSecond: 400, share: 0.4, effectiveNice: 2),
            TierShare(qos: .background, throughputPerSecond: 600, share: 0.6, effectiveNice: 10),
        ]
        #expect(
            ContentionCSV.serialize(shares)
                == "qos,share,throughput_per_s,effective_nice\nutility,0.4000,400.000,2\nbackground,0.6000,600.000,10\n"
        )
    }
}
