import PoolSizeModel
import Testing

@Suite struct QuantityParserTests {
    @Test(arguments: [
        ("40ms", 0.04), ("500us", 0.0005), ("500µs", 0.0005), ("500μs", 0.0005), ("1.5s", 1.5),
        ("2min", 120), ("1h", 3600), ("250ns", 2.5e-7), (" 40 ms ", 0.04), ("0ms", 0), ("-5ms", -0.005), ("1e3ms", 1),
    ])
    func durations(text: String, seconds: Double) throws {
        #expect(try QuantityParser.seconds(text, flag: "--wait") == seconds)
    }

    @Test func wholeMillisecondsDivideExactly() throws {
        // 40/1000 and 5/1000 are each rounded once, so W/C is exactly 8 and N exactly 72.
        let ratio = try QuantityParser.seconds("40ms", flag: "--wait") / QuantityParser.seconds("5ms", flag: "--cpu")
        #expect(ratio == 8)
    }

    @Test(arguments: [
        ("40", "error: --wait: '40' has no unit; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("2m", "error: --wait: '2m' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("soon", "error: --wait: 'soon' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("ms", "error: --wait: 'ms' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("", "error: --wait: '' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        // Swift's Double(_:) reads hexadecimal and infinity; a duration is decimal.
        ("0x10s", "error: --wait: '0x10s' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("infs", "error: --wait: 'infs' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
        ("nanms", "error: --wait: 'nanms' is not a duration; write it like 40ms, 500us (or 500µs), 1.5s or 2min"),
    ])
    func badDurations(text: String, message: String) {
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--wait", message: String(message.dropFirst("error: --wait: ".count)))
        ) {
            try QuantityParser.seconds(text, flag: "--wait")
        }
    }

    @Test(arguments: [
        ("1200/s", 1200.0), ("1200", 1200), ("72000/min", 1200), ("4320000/h", 1200), ("1200 / sec", 1200),
        ("1.5/S", 1.5), ("0/s", 0),
    ])
    func rates(text: String, perSecond: Double) throws {
        #expect(try QuantityParser.perSecond(text, flag: "--target-rate") == perSecond)
    }

    @Test func badRates() {
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--target-rate",
                message: "'fast' is not a rate; write it like 1200/s, 72000/min or 1200 (per second)")
        ) {
            try QuantityParser.perSecond("fast", flag: "--target-rate")
        }
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--target-rate",
                message: "unknown time unit 'day' in '5/day'; write it like 1200/s, 72000/min or 1200 (per second)")
        ) {
            try QuantityParser.perSecond("5/day", flag: "--target-rate")
        }
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--target-rate",
                message: "'1/2/s' is not a rate; write it like 1200/s, 72000/min or 1200 (per second)")
        ) {
            try QuantityParser.perSecond("1/2/s", flag: "--target-rate")
        }
        for hostile in ["0x10/s", "inf/s", "nan"] {
            #expect(
                throws: PoolSizeError.invalidOption(
                    flag: "--target-rate",
                    message: "'\(hostile)' is not a rate; write it like 1200/s, 72000/min or 1200 (per second)")
            ) {
                try QuantityParser.perSecond(hostile, flag: "--target-rate")
            }
        }
    }

    @Test(arguments: [("30%", 0.3), ("0.3", 0.3), ("1", 1.0), ("0", 0), ("150%", 1.5), ("12.5 %", 0.125)])
    func fractions(text: String, value: Double) throws {
        #expect(try QuantityParser.fraction(text, flag: "--headroom") == value)
    }

    @Test func badFractions() {
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--headroom", message: "'30' is ambiguous; write 30% for a percentage or a fraction like 0.3")
        ) {
            try QuantityParser.fraction("30", flag: "--headroom")
        }
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--headroom", message: "'lots%' is not a percentage; write it like 30% or 0.3")
        ) {
            try QuantityParser.fraction("lots%", flag: "--headroom")
        }
        #expect(
            throws: PoolSizeError.invalidOption(
                flag: "--headroom", message: "'some' is not a fraction; write it like 30% or 0.3")
        ) {
            try QuantityParser.fraction("some", flag: "--headroom")
        }
    }
}
