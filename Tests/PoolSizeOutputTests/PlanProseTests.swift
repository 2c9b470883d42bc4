import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeOutput
import Testing

/// The capacity plan in words, on the cases CapacityPlannerTests works out by hand: golden text.
@Suite struct PlanProseTests {
    static func worded(_ input: PlanInputs) throws -> CapacityPlan {
        let plan = try CapacityPlanner.plan(input)
        #expect(
            plan.assumptions.isEmpty && plan.warnings.isEmpty && (plan.slo?.advice ?? "").isEmpty,
            "Analysis words nothing")
        return PlanProse.worded(plan, input: input)
    }

    @Test func judgedCaseHasNoWarnings() throws {
        let plan = try Self.worded(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1)
        )
        #expect(plan.warnings.isEmpty)
        #expect(plan.assumptions.count == 6)
        #expect(
            plan.assumptions[1]
                == "Each host's 8 cores serve CPU bursts as one M/M/c queue (Erlang C): bursts average C = 5 ms, vary exponentially, and wait for a free core in arrival order."
        )
    }

    @Test func headroomIsAnAssumption() throws {
        let plan = try Self.worded(
            PlanInputs(waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1200, coresPerHost: 8, headroom: 0.3)
        )
        #expect(plan.assumptions.contains { $0.contains("30% headroom") && $0.contains("1560/s") })
    }

    @Test func failingSLONamesHostsAndCores() throws {
        let plan = try Self.worded(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1500, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.050))
        #expect(
            plan.slo?.advice
                == "The p99 response time 88.9 ms exceeds the 50 ms SLO: W + C take 45 ms and the wait for a core adds 43.9 ms at 93.8% utilization; 2 hosts of 8 cores or 11 cores per host (then 99 threads per host) would meet it."
        )
    }

    @Test func holdingSLOSaysSo() throws {
        let plan = try Self.worded(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.250))
        #expect(plan.slo?.advice == "The p99 response time 49.7 ms is within the 250 ms SLO at 1000/s.")
    }

    @Test func fullUtilizationWarns() throws {
        let plan = try Self.worded(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1600, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.1))
        #expect(
            plan.warnings == [
                "At 100% CPU utilization the queue for the cores is unstable and waits grow without bound; add a host, raise --headroom or lower --target-utilization."
            ])
    }

    @Test func aKneeWithinTwentyPercentOfTheFormulaIsNoWarning() throws {
        let run = MeasuredRun(
            path: "results/r1", cores: 2, waitCPURatioLower: 7.5, waitCPURatioUpper: 8.5, kneePoolSize: 30,
            formulaQueueCountExact: 32)
        let plan = try Self.worded(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1,
                measuredRun: run))
        #expect(plan.warnings.isEmpty)
        #expect(
            plan.assumptions.last
                == "W and C were measured with one worker in results/r1 (2 cores); on a different CPU C changes, and with it W/C."
        )
    }
}

/// A plan as the `plan` command makes it: the arithmetic, then the words.
func wordedPlan(_ input: PlanInputs) throws -> CapacityPlan {
    PlanProse.worded(try CapacityPlanner.plan(input), input: input)
}
