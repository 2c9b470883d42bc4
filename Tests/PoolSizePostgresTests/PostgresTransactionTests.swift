import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizePostgres
import Testing

/// A connection that needs no server: it records each command it is sent and answers from a
/// script of outcomes (`ok` once the script runs out), as libpq's blocking call would.
final class FakeConnection: PostgresExecuting {
    let clientID: Int
    var transaction = PgProgram.State()
    /// The commands sent, in order, as the server would have received them.
    var sent: [String] = []
    /// The outcome of each command by its place among all commands sent.
    var outcomes: [Int: PostgresOutcome]

    init(clientID: Int = 0, outcomes: [Int: PostgresOutcome] = [:]) {
        self.clientID = clientID
        self.outcomes = outcomes
    }

    func execute(_ sql: UnsafePointer<CChar>) -> PostgresOutcome {
        sent.append(String(cString: sql))
        return outcomes[sent.count - 1] ?? .ok
    }
}

/// A task's transaction on a connection (`PostgresTransaction`, what `PostgresSource` runs per
/// task): the SQL pgbench would send, the `\sleep`s, `:client_id` per connection, and how a
/// command the server fails ends the task.
@Suite struct PostgresTransactionTests {
    /// The project's pgbench scripts (Examples/postgres).
    static func example(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Examples/postgres/\(name)"), encoding: .utf8)
    }

    /// One transaction; the random draws take each range's upper bound, sleeps and failed
    /// SQLSTATEs are recorded.
    static func run(
        _ script: PgScript, variables: [String: Int64], on connection: FakeConnection,
        random: (ClosedRange<Int64>) -> Int64 = { $0.upperBound }
    ) -> (outcome: TaskOutcome, sleeps: [Int64], failed: [String]) {
        var sleeps: [Int64] = []
        var failed: [String] = []
        let outcome = PostgresTransaction.run(
            PgProgram(script, variables: variables), on: connection, random: random, sleep: { sleeps.append($0) },
            failed: { failed.append($0) })
        return (outcome, sleeps, failed)
    }

    /// pgbench's TPC-B-like transaction at scale 3 sends pgbench's seven statements, its
    /// values drawn at their ranges' tops.
    @Test func theTPCBTransactionSendsPgbenchsStatements() throws {
        let script = try PgScript(Self.example("tpcb-like.sql"), source: .sqlFile)
        let connection = FakeConnection()
        let result = Self.run(script, variables: ["scale": 3, "client_id": 0], on: connection)
        #expect(result.outcome == TaskOutcome())
        #expect(result.sleeps.isEmpty)
        #expect(result.failed.isEmpty)
        #expect(
            connection.sent == [
                "BEGIN",
                "UPDATE pgbench_accounts SET abalance = abalance + 5000 WHERE aid = 300000",
                "SELECT abalance FROM pgbench_accounts WHERE aid = 300000",
                "UPDATE pgbench_tellers SET tbalance = tbalance + 5000 WHERE tid = 30",
                "UPDATE pgbench_branches SET bbalance = bbalance + 5000 WHERE bid = 3",
                "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (30, 3, 300000, 5000, CURRENT_TIMESTAMP)",
                "END",
            ])
    }

    /// The orders example's skewed product: r = 100 gives product 100³/10000 = 100, r = 1
    /// gives 0 (integer division, as pgbench's).
    @Test func theOrdersTransactionComputesItsSkewedProduct() throws {
        let script = try PgScript(Self.example("orders.sql"), source: .sqlFile)
        let top = FakeConnection()
        _ = Self.run(script, variables: ["client_id": 0], on: top)
        #expect(top.sent[1] == "INSERT INTO orders (customer, product, qty) VALUES (10000, 100, 5)")
        #expect(top.sent[2] == "UPDATE products SET stock = stock - 5 WHERE id = 100")
        let bottom = FakeConnection()
        _ = Self.run(script, variables: ["client_id": 0], on: bottom, random: { $0.lowerBound })
        #expect(bottom.sent[1] == "INSERT INTO orders (customer, product, qty) VALUES (1, 0, 1)")
        #expect(bottom.sent.count == 5)
    }

    /// `\sleep` in each unit reaches the sleep in microseconds, between the commands around it;
    /// the amount may be an expression of variables.
    @Test func sleepsAreMicrosecondsInTheirPlace() throws {
        let script = try PgScript(
            "SELECT 1;\n\\sleep 2 ms\n\\set n 3\n\\sleep :n*5 us\n\\sleep 1 s\n\\sleep 4\nSELECT :n;", source: .sql)
        let connection = FakeConnection()
        let result = Self.run(script, variables: [:], on: connection)
        #expect(result.sleeps == [2_000, 15, 1_000_000, 4_000_000])
        #expect(connection.sent == ["SELECT 1", "SELECT 3"])
        #expect(result.outcome == TaskOutcome())
    }

    /// Each connection puts its own number in `:client_id`; a `\set` of a run variable lasts
    /// for its transaction only, also on a connection that ran one before.
    @Test func eachConnectionHasItsClientIDAndEachTransactionTheRunsValues() throws {
        let script = try PgScript(
            "\\set n :n * 2\nSELECT :client_id, :n, :scale;", source: .sql, defined: ["n"])
        let variables: [String: Int64] = ["n": 21, "scale": 7, "client_id": 0]
        let second = FakeConnection(clientID: 1)
        let fifth = FakeConnection(clientID: 4)
        _ = Self.run(script, variables: variables, on: second)
        _ = Self.run(script, variables: variables, on: second)
        _ = Self.run(script, variables: variables, on: fifth)
        #expect(second.sent == ["SELECT 1, 42, 7", "SELECT 1, 42, 7"])
        #expect(fifth.sent == ["SELECT 4, 42, 7"])
    }

    /// A serialization failure (40001) stops the transaction at that command: the rest is not
    /// sent, the SQLSTATE is counted, and the task fails saying the state and the server's
    /// message.
    @Test func aCommandTheServerFailsEndsTheTaskWithItsSQLState() throws {
        let script = try PgScript("BEGIN;\nUPDATE t SET v = v + 1;\nSELECT 1;\nCOMMIT;", source: .sql)
        let connection = FakeConnection(outcomes: [
            1: .failed(sqlState: "40001", message: "could not serialize access due to concurrent update")
        ])
        let result = Self.run(script, variables: [:], on: connection)
        #expect(connection.sent == ["BEGIN", "UPDATE t SET v = v + 1"])
        #expect(result.failed == ["40001"])
        #expect(
            result.outcome
                == TaskOutcome(failure: "SQLSTATE 40001: could not serialize access due to concurrent update"))
    }

    /// A failure without a SQLSTATE (the connection itself failed) is counted as such and the
    /// task fails with the message alone.
    @Test func aBrokenConnectionFailsTheTaskWithTheMessageAlone() throws {
        let script = try PgScript("SELECT 1;\nSELECT 2;", source: .sql)
        let connection = FakeConnection(outcomes: [
            0: .failed(sqlState: "", message: "server closed the connection unexpectedly")
        ])
        let result = Self.run(script, variables: [:], on: connection)
        #expect(connection.sent == ["SELECT 1"])
        #expect(result.failed == [""])
        #expect(result.outcome == TaskOutcome(failure: "server closed the connection unexpectedly"))
    }

    /// A value the script cannot have fails the task with the script's reason and line; the
    /// commands before it were sent, none after, and no SQLSTATE is counted.
    @Test func aValueTheScriptCannotHaveFailsTheTaskWithItsLine() throws {
        let script = try PgScript(
            "SELECT 1;\n\\set x 10 / (:n - :n)\nSELECT :x;", source: .sql, defined: ["n"])
        let connection = FakeConnection()
        let result = Self.run(script, variables: ["n": 4], on: connection)
        #expect(connection.sent == ["SELECT 1"])
        #expect(result.failed.isEmpty)
        #expect(result.outcome == TaskOutcome(failure: "line 2: \\set x: division by zero"))
        let crossed = try PgScript("\\set x random(5, 1)\nSELECT :x;", source: .sql)
        #expect(
            Self.run(crossed, variables: [:], on: FakeConnection()).outcome
                == TaskOutcome(failure: "line 1: \\set x: random(5, 1): the lower bound is above the upper"))
        let negative = try PgScript("\\sleep -3 ms\nSELECT 1;", source: .sql)
        #expect(
            Self.run(negative, variables: [:], on: FakeConnection()).outcome
                == TaskOutcome(failure: "line 1: \\sleep -3: out of range"))
    }

    /// `:scale` read by a `\set` of a run that has no value for it fails that `\set`, naming
    /// the variable; in SQL it stays as written, as pgbench leaves it.
    @Test func aVariableWithoutAValueFailsTheSetThatReadsIt() throws {
        let reading = try PgScript("\\set x :scale * 2\nSELECT :x;", source: .sql)
        #expect(
            Self.run(reading, variables: [:], on: FakeConnection()).outcome
                == TaskOutcome(failure: "line 1: \\set x: variable :scale is not set"))
        let writing = FakeConnection()
        _ = Self.run(try PgScript("SELECT :scale, :nothing;", source: .sql), variables: [:], on: writing)
        #expect(writing.sent == ["SELECT :scale, :nothing"])
    }
}
