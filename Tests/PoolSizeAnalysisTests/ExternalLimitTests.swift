import PoolSizeModel
import Testing
import PoolSizeAnalysis

/// When the server or device, not the pool, stops the curve: on curves built by hand.
@Suite struct ExternalLimitTests {
    static func summary(_ size: Int, _ throughput: Double, utilization: Double, cpu: Double = 1000, ratio: Double)
        -> ConfigurationSummary
    {
        ConfigurationSummary([
            TrialRecord(
                runID: "r", workload: "http", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1,
                tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: cpu,
                waitMicrosecondsPerTask: cpu * ratio, waitCPURatio: ratio, utilization: utilization,
                peakConcurrency: size,
                threads: size, effectiveNice: 0, integrity: .notApplicable)
        ])!
    }

    @Test func theHeaderParsesAndGivesACapacity() throws {
        let server = try #require(
            ExternalLimit.ServerBehaviour(header: "threads=4 cpu_us=2000 delay_us=10000 jitter=none"))
        #expect(server.threads == 4 && server.cpuMicroseconds == 2000 && server.delayMicroseconds == 10_000)
        // min(4 threads, 2 cores) / 2 ms = 1000/s.
        #expect(server.capacityPerSecond(cores: 2) == 1000)
        #expect(server.capacityPerSecond(cores: 8) == 2000)
        #expect(
            ExternalLimit.ServerBehaviour(header: "threads=4 cpu_us=0 delay_us=10000")?.capacityPerSecond(cores: 2)
                == nil)
        #expect(ExternalLimit.ServerBehaviour(header: "threads=x cpu_us=1 delay_us=1") == nil)
        #expect(ExternalLimit.ServerBehaviour(header: "nginx") == nil)
    }

    /// A server of 1 thread × 5 ms CPU answers 200/s; the client's curve flattens at 190/s
    /// from N = 2: the server is named as the limit.
    @Test func aKnownServerCapacityIsNamed() throws {
        let curve = [
            Self.summary(1, 95, utilization: 0.05, ratio: 9), Self.summary(2, 190, utilization: 0.1, ratio: 9),
            Self.summary(4, 191, utilization: 0.1, ratio: 20),
        ]
        let server = try #require(ExternalLimit.ServerBehaviour(header: "threads=1 cpu_us=5000 delay_us=0 jitter=none"))
        #expect(
            ExternalLimit.finding(curve, cores: 2, server: server)
                == "**The server limits it, not the pool**: the `poolsize serve` target answers at most min(1 threads, 2 cores) ÷ 5.00 ms of CPU per request = 200/s, and throughput reached 191/s (96% of it) from N = 2. More queues here cannot raise it; the server needs more threads or less CPU per request."
        )
    }

    /// Given the recommendation's knee, the finding names that size, so report and reason agree.
    @Test func theRecommendationsKneeIsNamed() throws {
        let curve = [
            Self.summary(1, 180, utilization: 0.05, ratio: 9), Self.summary(2, 190, utilization: 0.1, ratio: 9),
            Self.summary(4, 191, utilization: 0.1, ratio: 20),
        ]
        let server = try #require(ExternalLimit.ServerBehaviour(header: "threads=1 cpu_us=5000 delay_us=0 jitter=none"))
        #expect(
            ExternalLimit.finding(curve, cores: 2, server: server, knee: 1)?.contains("(96% of it) from N = 1.") == true
        )
        #expect(ExternalLimit.finding(curve, cores: 2, server: server)?.contains("(96% of it) from N = 2.") == true)
    }

    /// Below 85% of the server's capacity the pool is still the limit: nothing is said.
    @Test func belowCapacityNothingIsSaid() throws {
        let curve = [
            Self.summary(1, 50, utilization: 0.05, ratio: 9), Self.summary(2, 100, utilization: 0.1, ratio: 9),
            Self.summary(4, 150, utilization: 0.2, ratio: 9),
        ]
        let server = try #require(ExternalLimit.ServerBehaviour(header: "threads=1 cpu_us=5000 delay_us=0 jitter=none"))
        #expect(ExternalLimit.finding(curve, cores: 2, server: server) == nil)
    }

    /// Any target: flat at 400/s from N = 8 while the cores are 20% busy and a task's time
    /// grows from 10 ms (1 ms × (1 + 9)) to 40 ms (1 ms × (1 + 39)).
    @Test func aFlatCurveWithIdleCoresAndSlowerTasksIsNamed() {
        let curve = [
            Self.summary(1, 100, utilization: 0.05, ratio: 9), Self.summary(4, 390, utilization: 0.2, ratio: 9.2),
            Self.summary(8, 400, utilization: 0.2, ratio: 19), Self.summary(16, 400, utilization: 0.2, ratio: 39),
        ]
        #expect(
            ExternalLimit.finding(curve, cores: 2, server: nil)
                == "**Something outside the pool limits it**: throughput stops rising at N = 4 (400/s at most) while this process kept only 20% of the cores busy, and a task took 20.0 ms at N = 8 against 10.0 ms at N = 1: the server, device or network the tasks wait on has run out of capacity, not the pool. More queues only lengthen the wait."
        )
    }

    /// The same flat curve with the cores saturated is the pool's own CPU limit: nothing is said.
    @Test func aCPUBoundPlateauIsNotExternal() {
        let curve = [
            Self.summary(1, 100, utilization: 0.5, ratio: 1), Self.summary(2, 190, utilization: 0.95, ratio: 1.1),
            Self.summary(4, 200, utilization: 1.0, ratio: 3), Self.summary(8, 200, utilization: 1.0, ratio: 7),
        ]
        #expect(ExternalLimit.finding(curve, cores: 2, server: nil) == nil)
    }
}
