import Foundation
import PoolSizeModel
import Testing

/// pgbench's script subset: the scripts pgbench itself runs parse and build the SQL pgbench
/// would send; everything outside the subset is refused with its line.
@Suite struct PgScriptTests {
    /// pgbench's built-in TPC-B-like script as the project ships it (Examples/postgres, byte for
    /// byte what `pgbench --show-script=tpcb-like` prints; scripts/benchmark-postgres.sh checks).
    static func tpcb() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(
            contentsOf: root.appendingPathComponent("Examples/postgres/tpcb-like.sql"), encoding: .utf8)
    }

    /// Each random draw takes its range's upper bound: the SQL is then known exactly.
    static func highest(_ range: ClosedRange<Int64>) -> Int64 { range.upperBound }

    @Test func theTPCBScriptBuildsPgbenchsStatements() throws {
        let script = try PgScript(Self.tpcb(), source: .sqlFile)
        #expect(script.commands.count == 11)
        #expect(script.reads == ["scale", "aid", "bid", "tid", "delta"])
        let steps = try script.transaction(variables: ["scale": 3], random: Self.highest).get()
        #expect(
            steps == [
                .sql("BEGIN"),
                .sql("UPDATE pgbench_accounts SET abalance = abalance + 5000 WHERE aid = 300000"),
                .sql("SELECT abalance FROM pgbench_accounts WHERE aid = 300000"),
                .sql("UPDATE pgbench_tellers SET tbalance = tbalance + 5000 WHERE tid = 30"),
                .sql("UPDATE pgbench_branches SET bbalance = bbalance + 5000 WHERE bid = 3"),
                .sql(
                    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (30, 3, 300000, 5000, CURRENT_TIMESTAMP)"
                ),
                .sql("END"),
            ])
        if case let .sql(_, line) = script.commands[4] { #expect(line == 6) } else { Issue.record("not SQL") }
    }

    /// Arithmetic with pgbench's precedence, unary minus, `%`, nested parentheses; a statement
    /// over several lines, two on one line, comments and quotes holding `;` and `--`.
    @Test func expressionsAndStatementsAreReadAsPgbenchReadsThem() throws {
        let text = """
            \\set a 2 + 3 * 4
            \\set b (2 + 3) * 4 % 7 - -1
            \\set c random(:a, :a)
            SELECT :a, :b,
                   :c::int, ':a;--x' -- a comment; not SQL
            ; SELECT 1; SELECT :undefined
            \\sleep :a ms
            """
        let script = try PgScript(text, source: .sql)
        let steps = try script.transaction(variables: [:], random: Self.highest).get()
        #expect(
            steps == [
                .sql("SELECT 14, 7,\n       14::int, '14;--x'"), .sql("SELECT 1"), .sql("SELECT :undefined"),
                .sleep(microseconds: 14_000),
            ])
    }

    @Test(arguments: [
        (
            "\\gset",
            "error: `sql`: line 1: \\gset is not supported: this subset of pgbench's scripts runs SQL, \\set (integers, :variables, + - * / %, random(lo, hi)) and \\sleep"
        ),
        (
            "SELECT 1;\n\\set x random_gaussian(1, 10, 2.5)",
            "error: `sql`: line 2: function random_gaussian() is not supported (random(lo, hi) is)"
        ),
        (
            "\\set x :y + 1\nSELECT :x;",
            "error: `sql`: line 1: \\set reads :y, which nothing sets before it; \\set it first"
        ),
        ("\\set x 1.5\nSELECT :x;", "error: `sql`: line 1: only integers are supported, not '.5'"),
        ("\\set x (1 + 2\nSELECT :x;", "error: `sql`: line 1: a ')' is missing"),
        ("\\sleep 5 min\nSELECT 1;", "error: `sql`: line 1: \\sleep's unit is us, ms or s, not 'min'"),
        ("SELECT 'open;\n", "error: `sql`: line 1: a quoted string in the command starting here is not closed"),
        ("-- nothing\n\n", "error: `sql`: holds no SQL command; write the transaction's statements, each ended by ';'"),
        (
            "\\set x 99999999999999999999\nSELECT 1;",
            "error: `sql`: line 1: 99999999999999999999 is out of range"
        ),
    ])
    func outsideTheSubsetIsRefusedWithItsLine(text: String, message: String) {
        #expect(throws: PoolSizeError.self) { try PgScript(text, source: .sql) }
        do {
            _ = try PgScript(text, source: .sql)
        } catch {
            #expect(error.description == message)
        }
    }

    /// The SQL is split once: a name set only after the command, or never, stays as written,
    /// as pgbench leaves a name it has no value for; a cast stays a cast.
    @Test func aNameWithoutAValueBeforeTheCommandStaysAsWritten() throws {
        let script = try PgScript(
            "SELECT :late, :client_id, 1::int;\n\\set late 5\nSELECT :late;", source: .sql)
        let steps = try script.transaction(variables: ["client_id": 3], random: Self.highest).get()
        #expect(steps == [.sql("SELECT :late, 3, 1::int"), .sql("SELECT 5")])
    }

    /// A variable given for the run (`--define`) may be read; values that cannot be had fail
    /// the transaction with the line, as pgbench fails the client.
    @Test func valuesThatCannotBeHadFailTheTransaction() throws {
        let script = try PgScript("\\set x 10 / (:n - :n)\nSELECT :x;", source: .sql, defined: ["n"])
        #expect(
            script.transaction(variables: ["n": 4], random: Self.highest)
                == .failure(PgScriptFailure("line 1: \\set x: division by zero")))
        let crossing = try PgScript("\\set x random(5, 1)\nSELECT :x;", source: .sql)
        #expect(
            crossing.transaction(variables: [:], random: Self.highest)
                == .failure(PgScriptFailure("line 1: \\set x: random(5, 1): the lower bound is above the upper")))
        let huge = try PgScript("\\set x 9223372036854775807 + 1\nSELECT :x;", source: .sql)
        #expect(
            huge.transaction(variables: [:], random: Self.highest)
                == .failure(PgScriptFailure("line 1: \\set x: integer out of range")))
    }
}
