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

    /// Issue 33, finding 4: a refused pattern's reason in words (Foundation's was "The operation
    /// could not be completed. The value is invalid.").
    @Test func aRefusedPatternSaysWhy() {
        let cases: [(String, String)] = [
            ("(worker=pool", "a '(' is never closed"), ("((a)=pool", "a '(' is never closed"),
            ("a)=pool", "a ')' closes no '('"), ("*worker=pool", "'*' at its start has nothing to repeat"),
            ("a|+b=pool", "'+' at its start has nothing to repeat"), ("a[bc=pool", "a '[' is never closed"),
            ("worker\\=pool", "it ends in a lone '\\'"),
        ]
        for (text, reason) in cases {
            #expect(throws: GroupRule.Problem.invalidPattern(reason), "\(text)") { try GroupRule(parsing: text) }
        }
        // What the checks pass: a group's options, an escaped parenthesis, a class holding one.
        for text in ["(?i)worker=pool", "\\(1\\)=pool", "[(]x=pool", "a(b|c)*=pool"] {
            #expect((try? GroupRule(parsing: text)) != nil, "\(text)")
        }
    }

    /// A rule that placed no thread: one matching nothing, one matching only threads an earlier
    /// rule took; a rule that placed one is not named.
    @Test func rulesThatPlacedNoThreadAreNamed() throws {
        let rules = [
            try GroupRule(parsing: "^worker=workers"), try GroupRule(parsing: "work=also"),
            try GroupRule(parsing: "nomatch=ghosts"), try GroupRule(parsing: "title:^nginx=nginx"),
        ]
        let threads = [ThreadKey(pid: 1, tid: 1): "worker-1", ThreadKey(pid: 1, tid: 2): "main"]
        #expect(
            PoolGrouping(rules: rules).unmatchedRules(of: threads, titles: [1: "java -jar app.jar"])
                == Array(rules.dropFirst()))
        #expect(
            PoolGrouping(rules: rules).unmatchedRules(of: threads, titles: [1: "nginx: master"]) == [
                rules[1], rules[2],
            ])
    }

    @Test func titleRulesMatchTheProcessTitle() throws {
        let rule = try GroupRule(parsing: "title:^postgres: \\w+ \\w+ =backends")
        #expect(rule.field == .title && rule.pattern == "^postgres: \\w+ \\w+ " && rule.name == "backends")
        #expect(rule.text == "title:^postgres: \\w+ \\w+ =backends")
        #expect(try GroupRule(parsing: "thread:title:x=y") == GroupRule(pattern: "title:x", name: "y"))
        let grouping = PoolGrouping(rules: [rule])
        #expect(grouping.pool(of: "postgres", title: "postgres: app db 127.0.0.1(5000) idle") == "backends")
        #expect(grouping.pool(of: "postgres", title: "postgres: checkpointer") == "postgres")
        #expect(grouping.pool(of: "postgres") == "postgres", "no title: a title rule cannot match")
    }

    /// What of a title names a process's role: the program, then words up to the first that
    /// varies between processes of one kind.
    @Test func titleKeys() {
        #expect(PoolGrouping.titleKey("postgres: app db 127.0.0.1(5000) SELECT") == "postgres: app db")
        #expect(PoolGrouping.titleKey("postgres: app db [local] idle in transaction") == "postgres: app db")
        #expect(PoolGrouping.titleKey("postgres: background writer") == "postgres: background writer")
        #expect(PoolGrouping.titleKey("/usr/lib/postgresql/15/bin/postgres -D /var/lib/data -p 5432") == "postgres")
        #expect(
            PoolGrouping.titleKey("nginx: master process /usr/sbin/nginx -c /etc/nginx.conf") == "nginx: master process"
        )
        #expect(PoolGrouping.titleKey("nginx: worker process") == "nginx: worker process")
        #expect(PoolGrouping.titleKey("/tmp/pool_target --workers 2") == "pool_target")
        #expect(PoolGrouping.titleKey("") == nil)
    }

    /// Issue 31: PostgreSQL's postmaster, two helpers and two backends, every one named
    /// `postgres`, made one pool of 5; their titles part them.
    @Test func processesOfOneNameAreToldApartByTitle() {
        let titles: [Int32: String] = [
            1: "/usr/lib/postgresql/15/bin/postgres -D /data -p 5432",
            2: "postgres: checkpointer",
            3: "postgres: walwriter",
            4: "postgres: app db 127.0.0.1(50000) SELECT",
            5: "postgres: app db 127.0.0.1(50002) idle",
        ]
        var threads: [ThreadKey: String] = [:]
        for pid in titles.keys { threads[ThreadKey(pid: pid, tid: pid)] = "postgres" }
        let pools = PoolGrouping(rules: []).pools(of: threads, titles: titles)
        #expect(pools[ThreadKey(pid: 1, tid: 1)] == "postgres")
        #expect(pools[ThreadKey(pid: 2, tid: 2)] == "postgres: checkpointer")
        #expect(pools[ThreadKey(pid: 3, tid: 3)] == "postgres: walwriter")
        #expect(pools[ThreadKey(pid: 4, tid: 4)] == "postgres: app db")
        #expect(pools[ThreadKey(pid: 5, tid: 5)] == "postgres: app db")
    }

    /// Processes whose titles agree (gunicorn's arbiter and workers without setproctitle, one
    /// program started twice) stay one pool, and so do the threads of one process.
    @Test func processesWithOneTitleStayTogether() {
        let same: [Int32: String] = [
            1: "/usr/bin/python3 /usr/bin/gunicorn -w 2 app:app", 2: "/usr/bin/python3 /usr/bin/gunicorn -w 2 app:app",
        ]
        let threads = [ThreadKey(pid: 1, tid: 1): "gunicorn", ThreadKey(pid: 2, tid: 2): "gunicorn"]
        #expect(Set(PoolGrouping(rules: []).pools(of: threads, titles: same).values) == ["gunicorn"])
        let one = [ThreadKey(pid: 1, tid: 1): "worker-1", ThreadKey(pid: 1, tid: 2): "worker-2"]
        #expect(Set(PoolGrouping(rules: []).pools(of: one, titles: [1: "app"]).values) == ["worker"])
    }
}
