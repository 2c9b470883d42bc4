import Testing

@testable import PoolSizeModel

/// Where a trial may end once its throughput is known (`SweepPlan.setTrialMargin`): by default
/// in a closed loop, never where its whole length is the point, and a margin asked for there is
/// refused naming the setting.
@Suite struct SweepPlanMarginTests {
    static func plan(trialMilliseconds: Int? = nil) -> SweepPlan {
        SweepPlan(
            runID: "r", spec: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
            sizes: .auto, cores: 2, trialMilliseconds: trialMilliseconds)
    }

    static func refusal(_ message: String) -> PoolSizeError { .invalidParameter(.trialMargin, message: message) }

    @Test func aClosedLoopEndsAtTwoPercentByDefault() throws {
        var plan = Self.plan()
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == 0.02)
        try plan.setTrialMargin(0.05)
        #expect(plan.trialMargin == 0.05)
        plan.target = .database(
            DatabaseSetup(
                connection: "host=127.0.0.1", connectionLimit: 100, serverIsLocal: true, statementTimeoutSeconds: 0))
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == 0.02)
    }

    @Test func aLengthGivenAloneIsFixedAndWithAMarginTheLongest() throws {
        var plan = Self.plan(trialMilliseconds: 3000)
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == nil)
        try plan.setTrialMargin(0.02)
        #expect(plan.trialMargin == 0.02)
    }

    @Test func aServerDrivenByPoolsizeMayEndEarlyAndOneDrivenByATool() throws {
        var plan = Self.plan()
        var setup = ServerSetup(
            command: "poolsize serve --workers {size} --port {port}", url: "http://127.0.0.1:{port}/",
            connections: 64, readyTimeoutSeconds: 30)
        plan.target = .server(setup)
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == 0.02)
        setup.loadTool = "wrk -c64 -d3s http://127.0.0.1:{port}/"
        plan.target = .server(setup)
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == nil)
        #expect(
            throws: Self.refusal(
                "does not apply: a load tool's run lasts as long as its command says; drop it")
        ) { try plan.setTrialMargin(0.02) }
    }

    @Test func anOpenLoopAndPhasesRunTheirWholeLength() throws {
        var plan = Self.plan()
        plan.load = .open(ArrivalPlan(rates: [500]))
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == nil)
        #expect(
            throws: Self.refusal(
                "does not apply: an open loop's trials run their length to see the arrivals of every rate; drop it")
        ) { try plan.setTrialMargin(0.02) }
        var phased = Self.plan()
        phased.spec.phases = [WorkloadPhase(startMilliseconds: 300, cpuMicroseconds: 1000, waitMicroseconds: 1000)]
        try phased.setTrialMargin(nil)
        #expect(phased.trialMargin == nil)
        // The library's default is dropped where it cannot apply, not refused.
        try phased.setTrialMargin(0.02, refusing: false)
        #expect(phased.trialMargin == nil)
    }

    @Test(arguments: [0.0, 0.5, -0.01, .nan, .infinity])
    func aMarginOutsideTheOpenRangeIsRefused(margin: Double) {
        var plan = Self.plan()
        #expect(throws: PoolSizeError.self) { try plan.setTrialMargin(margin) }
        #expect(throws: PoolSizeError.self) { try plan.setTrialMargin(margin, refusing: false) }
        plan.trialMargin = 0.7
        #expect(throws: Self.refusal("must be in (0, 0.5), got 0.7; write 0.02 for 2%")) {
            try plan.checkTrialMargin()
        }
    }
}
