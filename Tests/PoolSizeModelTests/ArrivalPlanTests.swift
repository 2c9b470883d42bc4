import PoolSizeModel
import Testing

@Suite struct ArrivalPlanTests {
    @Test func oneRateInAnyUnit() throws {
        #expect(try ArrivalPlan.parseRates("800/s") == [800])
        #expect(try ArrivalPlan.parseRates("48000/min") == [800])
        #expect(try ArrivalPlan.parseRates(" 2.5 ") == [2.5])
    }

    @Test func aRangeStepsInItsLowEndsUnit() throws {
        #expect(
            try ArrivalPlan.parseRates("200/s...2000/s:200") == [
                200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000,
            ])
        // 60/min … 600/min by 60/min: 1 … 10 per second.
        #expect(try ArrivalPlan.parseRates("60/min...600/min:60") == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        // A step that does not land on the end still measures the end.
        #expect(try ArrivalPlan.parseRates("100/s...350/s:100") == [100, 200, 300, 350])
    }

    @Test func badRatesAreOneLineErrorsNamingTheFlag() {
        let cases: [(String, String)] = [
            ("0/s", "error: `arrivalRates`: a rate must be more than 0, got '0/s'; write it like 800/s"),
            (
                "fast",
                "error: `arrivalRates`: 'fast' is not a rate; write it like 1200/s, 72000/min or 1200 (per second)"
            ),
            (
                "2000/s...200/s:200",
                "error: `arrivalRates`: the range '2000/s...200/s:200' must go up (its end above its start); write one rate (800/s, 48000/min) or a range with a step (200/s...2000/s:200)"
            ),
            (
                "1/s...1000/s:1",
                "error: `arrivalRates`: '1/s...1000/s:1' has 1000 rates, more than the 50 a sweep may measure; take a larger step"
            ),
            // A step so small that the count of rates is past Int.max trapped (exit 132).
            (
                "100/s...200/s:1e-300",
                "error: `arrivalRates`: '100/s...200/s:1e-300' has 1e+302 rates, more than the 50 a sweep may measure; take a larger step"
            ),
            (
                "100/s...200/s",
                "error: `arrivalRates`: '100/s...200/s' is not a range; write one rate (800/s, 48000/min) or a range with a step (200/s...2000/s:200)"
            ),
            (
                "100/s...200/s:0",
                "error: `arrivalRates`: the step in '100/s...200/s:0' must be more than 0; write one rate (800/s, 48000/min) or a range with a step (200/s...2000/s:200)"
            ),
            (
                "2000000/s",
                "error: `arrivalRates`: '2000000/s' is over 1000000/s, faster than one dispatcher thread can schedule; size such a service per host at a lower rate"
            ),
        ]
        for (text, message) in cases {
            #expect(throws: PoolSizeError.self) { try ArrivalPlan.parseRates(text) }
            do { _ = try ArrivalPlan.parseRates(text) } catch {
                #expect(error.description == message)
                #expect(error.exitCode == 64)
            }
        }
    }

    @Test func autoSizesForOneRateStraddleItsLoad() {
        // 1000/s × 16 ms = 16 busy queues: half and exactly the load (cannot keep up), then
        // 17, 18, ⌈18.4⌉, ⌈20.8⌉, ⌈25.6⌉, 32.
        #expect(OpenLoopSizes.auto(rates: [1000], taskSeconds: 0.016) == [8, 16, 17, 18, 19, 21, 26, 32])
        // A load under one queue is filled with powers of two up to four sizes.
        #expect(OpenLoopSizes.auto(rates: [10], taskSeconds: 0.016) == [1, 2, 4, 8])
    }

    @Test func autoSizesForARangeTurnUpAcrossIt() throws {
        // Loads 3.2 … 32: 110% of the load at 200, 600, 1200, 1600, 2000/s, and 1.5 × 32.
        let rates = try ArrivalPlan.parseRates("200/s...2000/s:200")
        #expect(OpenLoopSizes.auto(rates: rates.map(\.perSecond), taskSeconds: 0.016) == [4, 11, 22, 29, 36, 48])
    }

    @Test func plannedTrialsAreUnknownForARangeOnly() {
        var plan = SweepPlan(
            runID: "r", spec: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
            sizes: .explicit([4, 8]), repetitions: 2, cores: 2)
        plan.load = .open(ArrivalPlan(rates: [500]))
        var info = RunInfo(.sweep(plan), sizes: [4, 8])
        #expect(info.plannedTrials?.count == 4)
        info.plan?.load = .open(ArrivalPlan(rates: [500, 1000]))
        #expect(info.plannedTrials == nil)
    }

    /// The key of a rate is that of its `%.3f` text in trials.csv, halves included.
    @Test func rateKeysFollowTheFilesText() {
        #expect(ArrivalRate(perSecond: 27.0 / 3600).thousandths == 7)
        #expect(ArrivalRate(perSecond: 27.0 / 3600) == ArrivalRate(perSecond: 0.007))
        #expect(ArrivalRate(perSecond: 1000.0 / 60).thousandths == 16_667)
        #expect(ArrivalRate(perSecond: 800).thousandths == 800_000)
    }

    /// Slower than the file records, or a range whose rates it could not tell apart: refused.
    @Test func ratesTheResultsCannotRecordAreRefused() {
        #expect(
            throws: PoolSizeError.invalidParameter(
                .arrivalRates,
                message: "'1/h' is under 0.001/s (3.6/h), slower than the results record; offer at least 0.001/s")
        ) {
            try ArrivalPlan.parseRates("1/h")
        }
        #expect(
            throws: PoolSizeError.invalidParameter(
                .arrivalRates,
                message:
                    "the step in '4/h...5/h:0.5' puts rates less than 0.001/s apart, which the results cannot tell apart; take a larger step"
            )
        ) {
            try ArrivalPlan.parseRates("4/h...5/h:0.5")
        }
        #expect((try? ArrivalPlan.parseRates("4/h...40/h:4"))?.count == 10)
    }
}
