import PoolSizeModel
import Testing

/// A compiled script runs transaction after transaction on one reused state and gives what
/// pgbench would send: values reset per transaction, each connection's `:client_id`, random
/// draws in pgbench's order, decimals as pgbench writes them.
@Suite struct PgProgramTests {
    /// Every SQL command of one transaction, and the script failure if any.
    static func run(
        _ program: PgProgram, clientID: Int64? = nil, state: inout PgProgram.State,
        random: (ClosedRange<Int64>) -> Int64 = { $0.upperBound }, stopAfter: Int = .max
    ) -> (sql: [String], failure: PgScriptFailure?) {
        var sql: [String] = []
        let failure = program.run(
            clientID: clientID, state: &state, random: random, sleep: { _ in },
            sql: { text in
                sql.append(String(cString: text))
                return sql.count < stopAfter
            })
        return (sql, failure)
    }

    /// A `\set` that changes a run variable changes it for its own transaction only.
    @Test func eachTransactionStartsFromTheRunsValues() throws {
        let script = try PgScript("\\set n :n + 1\nSELECT :n, :client_id;", source: .sql, defined: ["n"])
        let program = PgProgram(script, variables: ["n": 41, "client_id": 0])
        var state = PgProgram.State()
        #expect(Self.run(program, clientID: 7, state: &state).sql == ["SELECT 42, 7"])
        #expect(Self.run(program, clientID: 2, state: &state).sql == ["SELECT 42, 2"])
        #expect(Self.run(program, state: &state).sql == ["SELECT 42, 0"])
    }

    /// Decimals as `String(Int64)` writes them, the extremes and zero included.
    @Test func valuesAreWrittenInDecimal() throws {
        let script = try PgScript(
            "\\set low -9223372036854775807 - 1\n\\set high 9223372036854775807\n\\set zero 0\n\\set minus -40\nSELECT :low, :high, :zero, :minus;",
            source: .sql)
        var state = PgProgram.State()
        #expect(
            Self.run(PgProgram(script, variables: [:]), state: &state).sql == [
                "SELECT -9223372036854775808, 9223372036854775807, 0, -40"
            ])
    }

    /// Operands are evaluated, and random numbers drawn, left to right, as pgbench does: a
    /// seeded run then draws the same numbers for the same variables.
    @Test func randomNumbersAreDrawnInPgbenchsOrder() throws {
        let script = try PgScript(
            "\\set a random(1, 10) * 100 + random(20, 30)\n\\set b random(:a, :a + 1)\nSELECT :a, :b;", source: .sql)
        var ranges: [ClosedRange<Int64>] = []
        var state = PgProgram.State()
        let result = Self.run(
            PgProgram(script, variables: [:]), state: &state,
            random: { range in
                ranges.append(range)
                return range.lowerBound
            })
        #expect(ranges == [1...10, 20...30, 120...121])
        #expect(result.sql == ["SELECT 120, 120"])
    }

    /// A command the caller stops at ends the transaction there, without a script failure.
    @Test func aFailedCommandEndsTheTransaction() throws {
        let script = try PgScript("SELECT 1;\nSELECT 2;\nSELECT 3;", source: .sql)
        var state = PgProgram.State()
        let result = Self.run(PgProgram(script, variables: [:]), state: &state, stopAfter: 2)
        #expect(result.sql == ["SELECT 1", "SELECT 2"])
        #expect(result.failure == nil)
    }

    /// `:scale` is known to a script, but a run that sets no value for it fails the `\set`
    /// that reads it, naming the variable, and leaves it as written in SQL.
    @Test func aVariableWithoutAValueFailsTheSetThatReadsIt() throws {
        var state = PgProgram.State()
        let reading = try PgScript("\\set x :scale * 2\nSELECT :x;", source: .sql)
        #expect(
            Self.run(PgProgram(reading, variables: [:]), state: &state).failure
                == PgScriptFailure("line 1: \\set x: variable :scale is not set"))
        let writing = try PgScript("SELECT :scale;", source: .sql)
        #expect(Self.run(PgProgram(writing, variables: [:]), state: &state).sql == ["SELECT :scale"])
    }
}
