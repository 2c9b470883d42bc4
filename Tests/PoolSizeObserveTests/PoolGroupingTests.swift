import Testing
@testable import PoolSizeObserve

/// Pools from thread names (docs/platform.md: names as runtimes set them).
struct PoolGroupingTests {
    @Test func trailingNumbersAndSeparatorsAreStripped() {
        #expect(PoolGrouping.stripped("worker-12") == "worker")
        #expect(PoolGrouping.stripped("pool-1-thread-3") == "pool-1-thread")
        #expect(PoolGrouping.stripped("NIO-ELT-0-#1") == "NIO-ELT")
        #expect(PoolGrouping.stripped("GC Thread#0") == "GC Thread")
        #expect(
            PoolGrouping.stripped("http-nio-8080-e") == "http-nio-8080-e", "the JVM's truncated names already agree")
        #expect(PoolGrouping.stripped("tokio-rt-worker") == "tokio-rt-worker")
        #expect(PoolGrouping.stripped("1234") == "1234", "a name of digits stays itself")
        #expect(PoolGrouping.stripped("worker_٣") == "worker_٣", "only ASCII digits are numbers here")
    }

    @Test func rulesComeFirstAndTheFirstMatchWins() throws {
        let grouping = PoolGrouping(rules: [
            try GroupRule(parsing: "^http-nio=tomcat"), try GroupRule(parsing: "nio=other"),
        ])
        #expect(grouping.pool(of: "http-nio-8080-e") == "tomcat")
        #expect(grouping.pool(of: "NIO-ELT-0-#1") == "NIO-ELT", "rules are case-sensitive")
        #expect(grouping.pool(of: "my-nio-3") == "other")
        #expect(grouping.pool(of: "worker-3") == "worker")
    }

    @Test func ruleTextIsSplitAtTheLastEquals() throws {
        let rule = try GroupRule(parsing: "a=b=c")
        #expect(rule.pattern == "a=b")
        #expect(rule.name == "c")
        #expect(throws: GroupRule.Problem.notPatternEqualsName) { try GroupRule(parsing: "no-equals") }
        #expect(throws: GroupRule.Problem.notPatternEqualsName) { try GroupRule(parsing: "=name") }
        #expect(throws: (any Error).self) { try GroupRule(parsing: "([unclosed=name") }
    }
}
