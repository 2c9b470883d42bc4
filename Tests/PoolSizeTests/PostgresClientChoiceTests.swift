import PoolSize
import PoolSizeModel
import Testing

/// Which client drives a `--postgres` sweep's connections (`PostgresTask.resolvedClient`): the
/// closed loop's default is `async`, an open loop's `threads`; `async` asked for in an open loop
/// is refused naming the setting; a resumed run keeps the client it recorded (`threads` for a
/// run recorded before there was a choice), and one asked for beside it must agree.
@Suite struct PostgresClientChoiceTests {
    static func task(_ client: PostgresClient?) -> PostgresTask {
        var task = PostgresTask(connection: "postgresql://app@127.0.0.1:5432/shop", script: "SELECT 1;")
        task.client = client
        return task
    }

    static func context(open: Bool = false, recorded: PostgresClient?? = .none) -> TargetContext {
        var context = TargetContext(cores: 2)
        if open {
            context.load = .open(ArrivalPlan(rates: [100], latencyObjective: .milliseconds(40)))
        }
        if case let .some(client) = recorded {
            var plan = SweepPlan(
                runID: "r", spec: WorkloadSpec(name: "postgres-shop", cpuMicroseconds: 0, waitMicroseconds: 0),
                sizes: .auto, cores: 2)
            var setup = DatabaseSetup(
                connection: "postgresql://app@127.0.0.1:5432/shop", connectionLimit: 97, serverIsLocal: true,
                statementTimeoutSeconds: 60)
            setup.client = client
            plan.target = .database(setup)
            context.resumed = plan
        }
        return context
    }

    static func refusal(_ message: String) -> PoolSizeError { .invalidParameter(.postgresClient, message: message) }

    @Test func theDefaultFollowsTheLoop() throws {
        #expect(try Self.task(nil).resolvedClient(Self.context()) == .async)
        #expect(try Self.task(nil).resolvedClient(Self.context(open: true)) == .threads)
        #expect(try Self.task(.threads).resolvedClient(Self.context()) == .threads)
        #expect(try Self.task(.threads).resolvedClient(Self.context(open: true)) == .threads)
        #expect(try Self.task(.async).resolvedClient(Self.context()) == .async)
    }

    @Test func asyncIsRefusedInAnOpenLoop() {
        #expect(
            throws: Self.refusal(
                "async keeps every connection busy (a closed loop); an open loop's arrivals wait for a pool's threads: give threads or drop it"
            )
        ) { try Self.task(.async).resolvedClient(Self.context(open: true)) }
    }

    @Test func aResumeKeepsTheRecordedClient() throws {
        #expect(try Self.task(nil).resolvedClient(Self.context(recorded: .some(.async))) == .async)
        #expect(try Self.task(.async).resolvedClient(Self.context(recorded: .some(.async))) == .async)
        #expect(try Self.task(nil).resolvedClient(Self.context(recorded: .some(.threads))) == .threads)
        // Recorded before the client was a choice: each pool thread held a connection.
        #expect(try Self.task(nil).resolvedClient(Self.context(recorded: .some(nil))) == .threads)
        #expect(
            throws: Self.refusal(
                "is async, and the run being resumed drove its connections with threads; drop it or give threads")
        ) { try Self.task(.async).resolvedClient(Self.context(recorded: .some(nil))) }
    }
}
