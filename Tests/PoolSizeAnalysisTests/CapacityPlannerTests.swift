import PoolSizeModel
import Testing
import PoolSizeAnalysis

private func close(_ actual: Double?, _ expected: Double, within tolerance: Double) -> Bool {
    guard let actual else { return false }
    return abs(actual - expected) <= tolerance
}

@Suite struct CapacityPlannerTests {
    /// The judged case: --wait 40ms --cpu 5ms --target-rate 1000/s --cores-per-host 8
    /// --target-utilization 1.
    @Test func judgedCaseGives72ThreadsOnOneHost() throws {
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1)
        )
        // W/C = 40/5 = 8; N = 8 × 1 × (1 + 8) = 72 threads.
        #expect(plan.threadsPerHost == 72)
        #expect(close(plan.threadsExact, 72, within: 1e-9))
        // Capacity per host = 8 × 1 / 0.005 s = 1600/s; hosts = ceil(1000 / 1600) = ceil(0.625) = 1.
        #expect(plan.hosts == 1)
        #expect(close(plan.capacityPerHostPerSecond, 1600, within: 1e-9))
        // Utilization = 1000/s × 0.005 s / 8 cores = 0.625.
        #expect(close(plan.utilization, 0.625, within: 1e-12))
        let queue = try #require(plan.queue)
        // a = λC = 5 erlangs on c = 8 cores. Erlang B by B(k) = 5·B(k−1)/(k + 5·B(k−1)):
        // B1 = 0.833333, B2 = 0.675676, B3 = 0.529661, B4 = 0.398343, B5 = 0.284868,
        // B6 = 0.191847, B7 = 0.120519, B8 = 0.070048.
        // Erlang C = 8·0.070048/(8 − 5·(1 − 0.070048)) = 0.560383/3.349760 = 0.167267.
        #expect(close(queue.busyCores, 5, within: 1e-9))
        #expect(close(queue.waitProbability, 0.167267, within: 1e-6))
        // Wq = C/(cμ − λ) = 0.167267/(8 × 200 − 1000) = 0.167267/600 = 0.000278778 s.
        #expect(close(queue.meanQueueingDelaySeconds, 0.000278778, within: 1e-9))
        // Mean response = W + C + Wq = 0.045278778 s; Little: L = 1000 × 0.045278778 = 45.2788 tasks,
        // Lq = 1000 × 0.000278778 = 0.278778 queued for a core.
        #expect(close(queue.meanResponseSeconds, 0.045278778, within: 1e-9))
        #expect(close(queue.tasksInSystemPerHost, 45.278778, within: 1e-5))
        #expect(close(queue.tasksInSystemTotal, 45.278778, within: 1e-5))
        #expect(close(queue.tasksQueuedForCPUPerHost, 0.278778, within: 1e-6))
        // p99 of the wait: ln(0.167267/0.01)/600 = 2.817003/600 = 0.004695005 s; + W + C = 0.049695005.
        #expect(close(queue.responsePercentileSeconds, 0.049695005, within: 1e-8))
        #expect(queue.responsePercentile == 99)
        // 45 tasks on 72 threads: Erlang C on the threads is negligible.
        #expect(queue.threadWaitProbability < 1e-3)
        #expect(plan.slo == nil)
        #expect(plan.source == "declared")
    }

    @Test func defaultUtilizationAndHeadroom() throws {
        let plan = try CapacityPlanner.plan(
            PlanInputs(waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1200, coresPerHost: 8, headroom: 0.3)
        )
        // N = 8 × 0.8 × 9 = 57.6 → 58. Capacity = 8 × 0.8 / 0.005 = 1280/s;
        // hosts = ceil(1200 × 1.3 / 1280) = ceil(1.21875) = 2; λ per host = 600/s.
        #expect(plan.threadsPerHost == 58)
        #expect(plan.hosts == 2)
        #expect(close(plan.ratePerHostPerSecond, 600, within: 1e-9))
        // Utilization = 600 × 0.005 / 8 = 0.375.
        #expect(close(plan.utilization, 0.375, within: 1e-12))
        // a = 3 on 8 cores: B1 = 0.75, B2 = 0.529412, B3 = 0.346154, B4 = 0.206107, B5 = 0.110054,
        // B6 = 0.052157, B7 = 0.021864, B8 = 0.008132; C = 8·0.008132/(8 − 3·0.991868) = 0.012949.
        let queue = try #require(plan.queue)
        #expect(close(queue.waitProbability, 0.012949, within: 1e-6))
        // Wq = 0.012949/(1600 − 600) = 1.2949e-5 s; p99: 1 − 0.99 = 0.01 < C, ln(1.2949)/1000 = 0.000258 s.
        #expect(close(queue.meanQueueingDelaySeconds, 1.2949e-5, within: 1e-9))
        #expect(close(queue.responsePercentileSeconds, 0.045258412, within: 1e-8))
        // Little over both hosts: 1200 × (0.045 + 0.0000129) = 54.0155 tasks.
        #expect(close(queue.tasksInSystemTotal, 54.015539, within: 1e-5))
    }

    @Test func mm1MatchesTheClosedForm() throws {
        // One core, W = 0, C = 10 ms (μ = 100/s), λ = 50/s: M/M/1 with ρ = 0.5, Erlang C = ρ = 0.5,
        // Wq = ρ/(μ − λ) = 0.01 s, mean response 1/(μ − λ) = 0.02 s.
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0, cpuSeconds: 0.010, targetRatePerSecond: 50, coresPerHost: 1, targetUtilization: 1))
        #expect(plan.threadsPerHost == 1)  // 1 × 1 × (1 + 0): W = 0 is a CPU-bound task.
        let queue = try #require(plan.queue)
        #expect(close(queue.waitProbability, 0.5, within: 1e-12))
        #expect(close(queue.meanQueueingDelaySeconds, 0.01, within: 1e-12))
        #expect(close(queue.meanResponseSeconds, 0.02, within: 1e-12))
        // p99 wait = ln(0.5/0.01)/50 = ln 50/50 = 0.0782405; + C = 0.0882405.
        #expect(close(queue.responsePercentileSeconds, 0.0882405, within: 1e-7))
    }

    @Test func failingSLONamesHostsAndCoresThatMeetIt() throws {
        // λ = 1500/s on 8 cores, C = 5 ms: hosts = ceil(1500/1600) = 1, a = 7.5.
        // B1 = 0.882353, B2 = 0.767918, B3 = 0.657510, B4 = 0.552138, B5 = 0.453016, B6 = 0.361541,
        // B7 = 0.279209, B8 = 0.207455; C = 8·0.207455/(8 − 7.5·0.792545) = 0.807253.
        // p99 wait = ln(0.807253/0.01)/(1600 − 1500) = 4.391051/100 = 0.0439105 → p99 response 88.9 ms.
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1500, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.050))
        #expect(plan.hosts == 1)
        #expect(close(plan.queue?.waitProbability, 0.807253, within: 1e-6))
        #expect(close(plan.queue?.responsePercentileSeconds, 0.0889105, within: 1e-7))
        let slo = try #require(plan.slo)
        #expect(!slo.holds)
        // Two hosts: 750/s each, p99 46.7 ms ≤ 50 ms. One host of 11 cores: 49.1 ms (10 cores: 51.8 ms);
        // 11 cores need 11 × 1 × 9 = 99 threads.
        #expect(slo.hostsNeeded == 2)
        #expect(slo.coresPerHostNeeded == 11)
    }

    @Test func holdingSLOSaysSo() throws {
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.250))
        let slo = try #require(plan.slo)
        #expect(slo.holds)
        #expect(slo.hostsNeeded == 1)
        #expect(slo.coresPerHostNeeded == nil)
    }

    @Test func fullUtilizationIsUnstableAndSaysSo() throws {
        // 1600/s is exactly one host's capacity at U = 1: ρ = 1, the M/M/c queue never drains.
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1600, coresPerHost: 8, targetUtilization: 1,
                latencySLOSeconds: 0.1))
        #expect(plan.hosts == 1)
        #expect(plan.queue == nil)
        #expect(plan.slo?.holds == false)
        #expect(plan.slo?.hostsNeeded == 2)
    }

    @Test func measuredKneeSitsBesideTheFormula() throws {
        // A run on 2 cores measured a knee of 30 where its formula said 32: ratio 0.9375.
        // Here N = 72 exactly, so the knee-adjusted count is ceil(72 × 0.9375) = ceil(67.5) = 68.
        // W/C's 95% interval 7.5…8.5 maps to 8 × (1 + 7.5) = 68 … 8 × (1 + 8.5) = 76.
        let run = MeasuredRun(
            path: "results/r1", cores: 2, waitCPURatioLower: 7.5, waitCPURatioUpper: 8.5, kneePoolSize: 30,
            formulaQueueCountExact: 32)
        let plan = try CapacityPlanner.plan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1,
                measuredRun: run))
        let measured = try #require(plan.measured)
        #expect(measured.kneeToFormula == 0.9375)
        #expect(measured.kneeAdjustedThreadsPerHost == 68)
        #expect(measured.threadsPerHostLower == 68)
        #expect(measured.threadsPerHostUpper == 76)
        #expect(plan.source == "results/r1")
    }

    @Test func roundUpForgivesTheLastBits() {
        #expect(CapacityPlanner.roundUp(72.00000000000001) == 72)
        #expect(CapacityPlanner.roundUp(71.99999999999999) == 72)
        #expect(CapacityPlanner.roundUp(57.6) == 58)
        #expect(CapacityPlanner.roundUp(72.001) == 73)
        #expect(CapacityPlanner.roundUp(0.625) == 1)
    }

    @Test(arguments: [
        (
            PlanInputs(waitSeconds: 0.04, cpuSeconds: 0, targetRatePerSecond: 1000, coresPerHost: 8),
            "error: `cpuSeconds`: must be greater than zero, got 0 ms; every task burns some CPU, e.g. `cpuSeconds` 5ms"
        ),
        (
            PlanInputs(waitSeconds: -0.005, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8),
            "error: `waitSeconds`: must not be negative, got -5 ms; write `waitSeconds` 0ms for a task that never waits"
        ),
        (
            PlanInputs(waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 0, coresPerHost: 8),
            "error: `targetRatePerSecond`: must be greater than zero, got 0/s; write it like 1200/s"
        ),
        (
            PlanInputs(waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 0),
            "error: `coresPerHost`: must be at least 1, got 0"
        ),
        (
            PlanInputs(
                waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1.5
            ), "error: `targetUtilization`: must be in (0, 1], got 1.5; write 0.8 for 80%"
        ),
        (
            PlanInputs(
                waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, headroom: -0.1),
            "error: `headroom`: must not be negative, got -10%; write 30% (or 0.3) for 30% spare capacity"
        ),
        (
            PlanInputs(
                waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, sloPercentile: 100),
            "error: `sloPercentile`: must be in (0, 100), got 100; write 99 for p99"
        ),
        (
            PlanInputs(
                waitSeconds: 0.04, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8,
                latencySLOSeconds: 0.040),
            "error: `latencySLO`: 40 ms cannot be met: W + C alone take 45 ms per task before any queueing, and no number of hosts or threads shortens that; relax the SLO or shorten W or C"
        ),
        (
            PlanInputs(waitSeconds: 100, cpuSeconds: 1e-6, targetRatePerSecond: 1000, coresPerHost: 8),
            "error: `waitSeconds`: W/C = 100000000 asks for 640000006 threads per host; check the units of `waitSeconds` and `cpuSeconds` (40ms, 5ms)"
        ),
        (
            PlanInputs(waitSeconds: 0.04, cpuSeconds: 5, targetRatePerSecond: 1e9, coresPerHost: 8),
            "error: `targetRatePerSecond`: 1000000000/s needs 781250000 hosts of 8 cores; check the rate's unit (1200/s, 72000/min)"
        ),
    ])
    func impossibleInputsAreExplained(input: PlanInputs, message: String) {
        #expect(throws: PoolSizeError.self) { try CapacityPlanner.plan(input) }
        do {
            _ = try CapacityPlanner.plan(input)
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 64)
        }
    }
}
