import PoolSizeModel
import Testing

@Suite struct AxisSelectionTests {
    @Test func tiersAndAliases() throws {
        #expect(try AxisSelection.tiers("all") == QoSTier.allCases)
        #expect(try AxisSelection.tiers("high,low") == [.userInitiated, .utility])
        #expect(try AxisSelection.tiers("default, background") == [.default, .background])
        #expect(try AxisSelection.tiers("user-initiated,high") == [.userInitiated])
    }

    @Test func primitivesAllExcludesTheUnprotectedDemo() throws {
        let all = try AxisSelection.primitives("all")
        #expect(all.count == PrimitiveKind.allCases.count - 1)
        #expect(!all.contains(.unprotected))
        #expect(try AxisSelection.primitives("mutex,unprotected") == [.mutex, .unprotected])
    }

    @Test func pools() throws {
        #expect(try AxisSelection.pools("all") == PoolKind.allCases.filter { $0 != .server && $0 != .loadTool })
        #expect(
            throws: PoolSizeError.invalidParameter(
                .pools,
                message:
                    "'server' is the pool inside a server poolsize starts; give `server` with the server's command instead"
            )
        ) { try AxisSelection.pools("queue-pool,server") }
        #expect(try AxisSelection.pools("thread-pool,queue-pool") == [.threadPool, .queuePool])
    }

    @Test(arguments: [
        (
            "qos", "urgent",
            "error: `tiers`: unknown value 'urgent'; valid values: all, user-interactive, user-initiated, default, utility, background, high, low"
        ),
        (
            "primitive", "foo",
            "error: `primitives`: unknown value 'foo'; valid values: all, none, mutex, pthread-mutex, recursive-mutex, nslock, nscondition, semaphore, serial-queue, barrier, rwlock, spinlock, atomic, unprotected"
        ),
        (
            "pool", "bar",
            "error: `pools`: unknown value 'bar'; valid values: all, queue-pool, thread-pool, global-queue, operation-queue, task-group, adaptive"
        ),
        (
            "pool", "queue-pool,",
            "error: `pools`: empty value in 'queue-pool,'; valid values: all, queue-pool, thread-pool, global-queue, operation-queue, task-group, adaptive"
        ),
    ])
    func unknownValuesListTheValidOnes(axis: String, value: String, message: String) {
        do {
            switch axis {
            case "qos": _ = try AxisSelection.tiers(value)
            case "primitive": _ = try AxisSelection.primitives(value)
            default: _ = try AxisSelection.pools(value)
            }
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 64)
        }
    }

    @Test func productOrdersByAxis() {
        let all = Combination.product(
            pools: [.queuePool, .threadPool], tiers: [.default], primitives: [.none, .mutex])
        #expect(
            all.map(\.description) == [
                "queue-pool/default/none", "queue-pool/default/mutex", "thread-pool/default/none",
                "thread-pool/default/mutex",
            ])
        #expect(all.sorted() == all)
    }
}
