import PoolSizeModel
import Testing

@Suite struct TraceTests {
    /// Rows worked out by hand: C 1000, 2000, 3000, 4000 µs; W 8000, 8000, 12000, 12000 µs.
    static let text = "request,cpu_us,wait_us\na,1000,8000\nb,2000,8000\nc,3000,12000\nd,4000,12000\n"

    @Test func readsTheRowsAndTheirFigures() throws {
        let trace = try Trace.parse(Self.text, path: "t.csv")
        #expect(trace.count == 4)
        #expect(trace.waitCPURatio == 40000.0 / 10000.0)
        let spec = trace.spec()
        #expect(spec.name == "trace-t" && spec.cpuMicroseconds == 2500 && spec.waitMicroseconds == 10000)
        // Type-7 percentiles: C p50 = 2500, p99 = 3000 + 0.97 × 1000 = 3970; W p50 = 10000, p99 = 12000.
        #expect(trace.summary == "4 rows; W/C 4.00 (Σ W / Σ C); C p50 2.50 ms, p99 3.97 ms; W p50 10.0 ms, p99 12.0 ms")
        #expect(spec.description == "recorded trace t.csv: " + trace.summary)
    }

    @Test(arguments: [
        (
            "cpu,wait_us\n1,2\n",
            "error: t.csv: line 1: no column 'cpu_us'; the header must name cpu_us and wait_us (microseconds per request), e.g. cpu_us,wait_us"
        ),
        (
            "cpu_us,wait\n1,2\n",
            "error: t.csv: line 1: no column 'wait_us'; the header must name cpu_us and wait_us (microseconds per request), e.g. cpu_us,wait_us"
        ),
        ("cpu_us,wait_us\n1,2\n3,-4\n", "error: t.csv: line 3, column 'wait_us': -4 is negative; times are ≥ 0"),
        (
            "cpu_us,wait_us\n1e300,2\n",
            "error: t.csv: line 2, column 'cpu_us': 1e300 µs is more than 10 minutes, longer than a task a sweep can time; times are in microseconds"
        ),
        (
            "cpu_us,wait_us\n1,1e300\n",
            "error: t.csv: line 2, column 'wait_us': 1e300 µs is more than 10 minutes, longer than a task a sweep can time; times are in microseconds"
        ),
        (
            "cpu_us,wait_us\n1,2\nfast,4\n",
            "error: t.csv: line 3, column 'cpu_us': 'fast' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        (
            "cpu_us,wait_us\n1,2\n3\n",
            "error: t.csv: line 3, column 'wait_us': '' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        // Swift's Double(_:) reads these; no measurement is written so (one rule: FiniteNumber).
        (
            "cpu_us,wait_us\n0x10,2\n",
            "error: t.csv: line 2, column 'cpu_us': '0x10' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        (
            "cpu_us,wait_us\n1,0x1p3\n",
            "error: t.csv: line 2, column 'wait_us': '0x1p3' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        (
            "cpu_us,wait_us\nnan,2\n",
            "error: t.csv: line 2, column 'cpu_us': 'nan' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        (
            "cpu_us,wait_us\n1,infinity\n",
            "error: t.csv: line 2, column 'wait_us': 'infinity' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        (
            "cpu_us,wait_us\n1,1e400\n",
            "error: t.csv: line 2, column 'wait_us': '1e400' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
        ),
        // Which of two cpu_us columns is meant cannot be told (the first was taken silently).
        ("cpu_us,wait_us,cpu_us\n1,2,3\n", "error: t.csv: line 1: column 'cpu_us' appears 2 times; keep one"),
        ("wait_us,cpu_us,wait_us\n1,2,3\n", "error: t.csv: line 1: column 'wait_us' appears 2 times; keep one"),
        ("cpu_us,wait_us\n", "error: t.csv: has a header but no rows; add one row per observed request"),
        (
            "cpu_us,wait_us\n0,5\n0,7\n",
            "error: t.csv: column 'cpu_us' is 0 on every row; a request that burns no CPU has no W/C (is the column in microseconds?)"
        ),
    ])
    func badTracesNameFileLineAndColumn(text: String, message: String) {
        do {
            _ = try Trace.parse(text, path: "t.csv")
            Issue.record("parsed")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 65)
        }
    }
}

extension TraceTests {
    /// An unterminated quote makes the CSV parser read to the end of the file: the message
    /// quotes one line of it, cut, not megabytes (14.5 MB before).
    @Test func anUnterminatedQuoteIsQuotedOneLineCut() {
        let text = "cpu_us,wait_us\n1,\"2\n" + String(repeating: "3,4\n", count: 500_000)
        do {
            _ = try Trace.parse(text, path: "t.csv")
            Issue.record("parsed")
        } catch {
            #expect(
                error.description
                    == "error: t.csv: line 2, column 'wait_us': '2…' is not a number of microseconds (write decimals, e.g. 250 or 1.5e3)"
            )
            #expect(error.exitCode == 65)
        }
    }
}
