import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

@testable import PoolSizePostgres

/// What PoolSizePostgres makes of the server's answers without a server: failed transactions
/// counted by SQLSTATE per trial window, the wait-event types sampled from `pg_stat_activity`,
/// libpq's connection failures with their fix, broken connections as an invalid trial, and the
/// backends' CPU from /proc.
@Suite struct PostgresClassificationTests {
    /// A window watch without a server: no connection is ever opened, no monitor samples.
    static func watch(readsBackendCPU: Bool = false) -> PostgresWindowWatch {
        let connections = ConnectionFreeList<PostgresConnection> { (_: Int) throws(PoolSizeError) in
            throw .measurementFailed("no server in a unit test")
        }
        return PostgresWindowWatch(connections: connections, monitor: nil, readsBackendCPU: readsBackendCPU)
    }

    /// Failures are counted by SQLSTATE while a window is open only; one without a SQLSTATE (the
    /// connection failed) is counted as `none`; each window starts from zero.
    @Test func failuresAreCountedBySQLStateInTheirWindow() {
        let watch = Self.watch()
        watch.failed(sqlState: "40001")
        watch.windowOpened()
        for state in ["40001", "40P01", "40001", ""] { watch.failed(sqlState: state) }
        let seen = watch.windowClosed()
        #expect(seen == .database(DatabaseFigures(errorsBySQLState: ["40001": 2, "40P01": 1, "none": 1])))
        #expect(seen.database?.errorsText == "40001:2 40P01:1 none:1")
        #expect(seen.database?.failedTransactions == 4)
        watch.failed(sqlState: "40001")
        #expect(watch.windowClosed() == .nothing)
        watch.windowOpened()
        #expect(watch.windowClosed() == .database(DatabaseFigures()))
        watch.close()
    }

    /// Once the sweep is over a window no longer opens: nothing is counted or sampled.
    @Test func aClosedWatchSeesNothing() {
        let watch = Self.watch()
        watch.close()
        watch.windowOpened()
        watch.failed(sqlState: "40001")
        #expect(watch.windowClosed() == .nothing)
    }

    /// On this machine's server the backends' CPU is read from /proc: with no backend open it is
    /// 0 s, not unknown; without a monitoring connection there are no snapshots.
    @Test func aLocalServerWithoutBackendsUsedNoCPU() {
        let watch = Self.watch(readsBackendCPU: true)
        watch.windowOpened()
        let figures = watch.windowClosed().database
        #expect(figures?.backendCPUSeconds == 0)
        #expect(figures?.snapshots == 0)
        #expect(figures?.waitSamples == [:])
        watch.close()
    }

    /// Every `wait_event_type` PostgreSQL 16 reports, and no wait, in the report's classes.
    @Test(arguments: [
        ("active", "Activity", WaitClass?.some(.other), "other waits"),
        ("active", "BufferPin", .other, "other waits"),
        ("idle", "Client", .client, "Client"),
        ("active", "Extension", .other, "other waits"),
        ("active", "IO", .io, "IO"),
        ("active", "IPC", .other, "other waits"),
        ("active", "Lock", .lock, "Lock"),
        ("active", "LWLock", .lwlock, "LWLock"),
        ("active", "Timeout", .timeout, "Timeout/pg_sleep"),
        ("active", "", .cpu, "CPU"),
        ("idle in transaction", "", .client, "Client"),
        ("idle in transaction (aborted)", "", .client, "Client"),
        ("fastpath function call", "", nil, ""),
    ])
    func waitEventTypesHaveTheirClass(state: String, type: String, expected: WaitClass?, label: String) {
        let kind = WaitClass(state: state, waitEventType: type)
        #expect(kind == expected)
        #expect((kind?.label ?? "") == label)
    }

    /// A lock wins over the CPU at equal samples; the shares are of all samples.
    @Test func theDominantClassAndShares() {
        let figures = DatabaseFigures(waitSamples: [.cpu: 3, .lock: 3, .client: 2])
        #expect(figures.dominant == .lock)
        #expect(figures.share(.client) == 0.25)
        #expect(figures.sampleCount == 8)
        #expect(DatabaseFigures().dominant == nil)
    }

    /// SQLSTATE 57014 is query_canceled, the code a statement timeout ends a statement with.
    @Test func queryCanceledIs57014() {
        #expect(PostgresConnection.queryCanceled == "57014")
        #expect(
            PostgresOutcome.failed(sqlState: "40001", message: "a")
                != PostgresOutcome.failed(sqlState: "40001", message: "b"))
    }

    /// libpq's reasons for a failed connection, each with its fix.
    @Test(arguments: [
        (
            #"connection to server at "127.0.0.1", port 5432 failed: FATAL:  password authentication failed for user "bench""#,
            "check the user and password (in the URL, PGPASSWORD or ~/.pgpass)"
        ),
        (
            #"connection to server at "127.0.0.1", port 5432 failed: fe_sendauth: no password supplied"#,
            "check the user and password (in the URL, PGPASSWORD or ~/.pgpass)"
        ),
        (
            #"connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: FATAL:  database "shop" does not exist"#,
            "create the database (createdb NAME) or name one that exists"
        ),
        (
            #"connection to server at "127.0.0.1", port 5999 failed: Connection refused; Is the server running on that host and accepting TCP/IP connections?"#,
            "start the server, or correct the host and port"
        ),
        (
            #"connection to server on socket "/tmp/.s.PGSQL.5432" failed: No such file or directory"#,
            "start the server, or correct the host and port"
        ),
        (
            #"could not translate host name "db.invalid" to address: Name or service not known"#,
            "start the server, or correct the host and port"
        ),
        (
            #"connection to server at "127.0.0.1", port 5432 failed: FATAL:  sorry, too many clients already"#,
            "the server is at max_connections; close other clients or raise it"
        ),
        (#"invalid connection option "colour""#, "correct the connection URL"),
        (#"connection to server failed: FATAL:  role "nobody" does not exist"#, "correct the connection URL"),
    ])
    func aFailedConnectionSaysWhatToDo(reason: String, fix: String) {
        #expect(PostgresConnection.advice(for: reason) == "cannot connect: \(reason); \(fix)")
    }

    /// libpq's multi-line messages become one line, each line trimmed, control characters
    /// written out; no message is said as such.
    @Test func libpqsMessagesAreOneLine() {
        #expect(PostgresConnection.oneLine(nil) == "no message")
        let message = "FATAL:  terminating connection\n  HINT:  \u{1B}[31mretry\n\n"
        let line = message.withCString { PostgresConnection.oneLine($0) }
        #expect(line == "FATAL:  terminating connection; HINT:  \\x1b[31mretry")
    }

    /// Transaction control is not prepared to be checked (it would change the probe's state);
    /// everything else is.
    @Test(arguments: [
        ("BEGIN", true), ("begin;", true), ("  commit  ", true), ("END", true), ("ROLLBACK", true),
        ("abort", true), ("START TRANSACTION ISOLATION LEVEL SERIALIZABLE", true), ("BEGINNING", false),
        ("SELECT 1", false), ("", false), ("WITH x AS (SELECT 1) SELECT * FROM x", false),
    ])
    func transactionControlIsNotChecked(sql: String, isControl: Bool) {
        #expect(PostgresSource.isTransactionControl(sql) == isControl)
    }

    /// A trial in which connections broke is not the pool's, and says why.
    @Test func aTrialWithBrokenConnectionsSaysWhy() {
        #expect(
            PostgresTrialMeasurer.invalidReason(lost: 1, unreachable: nil)
                == "1 connection to the server broke during the trial (their backends ended; the server answered again after it)"
        )
        let refused = "cannot connect: Connection refused; start the server, or correct the host and port"
        #expect(
            PostgresTrialMeasurer.invalidReason(lost: 3, unreachable: refused)
                == "3 connections to the server broke during the trial, and the server went away: cannot connect: Connection refused; start the server, or correct the host and port"
        )
    }

    /// A backend's CPU is utime + stime of its stat line (ProcText, the one parser), counted
    /// after the last parenthesis: a backend's title holds spaces and parentheses.
    @Test func aBackendsStatTicksAreUserPlusSystem() {
        let backend =
            "4242 (postgres: bench shop [local] SELECT) R 100 100 100 0 -1 4194560 500 0 0 0 37 5 0 0 20 0 1 0 777"
        #expect(ProcText.stat(backend)?.cpuTicks == 42)
        #expect(ProcText.stat("7 (a) b) S 1 1 1 0 -1 0 0 0 0 0 1000 234 0 0 20 0 1 0 9")?.cpuTicks == 1_234)
        #expect(ProcText.stat("7 (short) S 1 1 1") == nil)
    }

    /// The CPU of a live process is read; a process that has gone is left out.
    @Test func theCPUOfProcessesThatAreGoneIsLeftOut() {
        let me = getpid()
        let cpu = PostgresWaitSampler.cpuNanoseconds([me, Int32.max])
        #expect(Array(cpu.keys) == [me])
        #expect((cpu[me] ?? 0) > 0)
    }
}
