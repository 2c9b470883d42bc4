import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// When a command's C is mostly its program starting: the share worked by hand.
@Suite struct ProcessStartShareTests {
    static func lowLoad(cpu: Double, start: Double?) -> LowLoadEstimate {
        var estimate = LowLoadEstimate(
            tasks: 40, seconds: 1, cpuMicrosecondsPerTask: cpu, waitMicrosecondsPerTask: 100, ratio: nil)
        estimate.processStart = start.map {
            ProcessStart(program: "/usr/bin/psql", runs: 5, cpuMicroseconds: $0, wallMicroseconds: 2 * $0)
        }
        return estimate
    }

    /// psql as the issue measured it: 27 ms of C a task; its start alone 18 ms: 18/27 = 67%.
    @Test func aStartThatIsMostOfCIsFound() throws {
        let found = try #require(ProcessStartShare.finding(Self.lowLoad(cpu: 27_000, start: 18_000)))
        #expect(abs(found.share - 2.0 / 3) < 1e-12)
        #expect(found.cpuMicrosecondsPerTask == 27_000)
        // Exactly half is "most" (the threshold is inclusive); just under it is not.
        #expect(ProcessStartShare.finding(Self.lowLoad(cpu: 1000, start: 500)) != nil)
        #expect(ProcessStartShare.finding(Self.lowLoad(cpu: 1000, start: 499)) == nil)
    }

    /// psql measured by the loader alone: 2 ms of 27 ms is under half, but psql connects in
    /// every task, which the loader's start cannot show: named, so the report can say how to
    /// measure it. A baseline measured it: no longer named. Not a client: never named.
    @Test func aClientsOwnStartUpIsNamedUntilABaselineMeasuresIt() {
        #expect(ProcessStartShare.unmeasuredStartUp(Self.lowLoad(cpu: 27_000, start: 2_000)) == "psql")
        var python = Self.lowLoad(cpu: 30_000, start: 1_500)
        python.processStart?.program = "/usr/bin/python3.11"
        #expect(ProcessStartShare.unmeasuredStartUp(python) == "python3.11")
        var measured = Self.lowLoad(cpu: 27_000, start: 2_000)
        measured.processStart?.baseline = "psql -c 'SELECT 1'"
        #expect(ProcessStartShare.unmeasuredStartUp(measured) == nil)
        // Already most of C: the other finding says it.
        #expect(ProcessStartShare.unmeasuredStartUp(Self.lowLoad(cpu: 27_000, start: 18_000)) == nil)
        var gzip = Self.lowLoad(cpu: 17_000, start: 400)
        gzip.processStart?.program = "/usr/bin/gzip"
        #expect(ProcessStartShare.unmeasuredStartUp(gzip) == nil)
        #expect(ProcessStartShare.unmeasuredStartUp(Self.lowLoad(cpu: 27_000, start: nil)) == nil)
    }

    @Test func aStartThatIsASliverIsNot() {
        // gzip of 300 KB: 17 ms of C, sh's start 0.4 ms (2.4%).
        #expect(ProcessStartShare.finding(Self.lowLoad(cpu: 17_000, start: 400)) == nil)
        // Nothing measured (not a command, or a static program), or no C.
        #expect(ProcessStartShare.finding(Self.lowLoad(cpu: 17_000, start: nil)) == nil)
        #expect(ProcessStartShare.finding(Self.lowLoad(cpu: 0, start: 400)) == nil)
    }
}
