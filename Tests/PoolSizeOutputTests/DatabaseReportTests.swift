import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// A database sweep's own output, on the server fixture's trials (Tests/Fixtures/run-server:
/// sizes 2…32 on 2 cores, throughput still rising at 32, which is recommended) recorded under a `.database` target: the connection
/// pool's rules in the console and the report, the report's Database section, and the caveat
/// when the answer sits at the server's connection limit.
@Suite struct DatabaseReportTests {
    static func run(limit: Int?) throws -> RunData {
        var run = try ServerReportTests.run()
        run.info?.plan?.target = .database(
            DatabaseSetup(
                connection: "postgresql://REDACTED@127.0.0.1:5432/bench", connectionLimit: limit, serverIsLocal: true,
                statementTimeoutSeconds: 60))
        return run
    }

    static func console(_ run: RunData) throws -> String {
        ConsoleSummary.render(
            RunAnalysis(run), spec: try #require(run.plan?.spec), cores: try #require(run.info?.machine?.cores),
            lowLoad: try #require(run.lowLoad))
    }

    @Test func theConnectionPoolsRulesAreSaid() throws {
        let run = try Self.run(limit: 64)
        let analysis = RunAnalysis(run)
        #expect(analysis.rulesOfThumb.map(\.rule) == [.hikari, .maxConnections])
        #expect(analysis.rulesOfThumb.map(\.size) == [5, 64])
        #expect(analysis.boundingConnectionLimit == nil)
        let console = try Self.console(run)
        let heading =
            "\nrules of thumb for a connection pool, on the database server's 2 cores (it runs on this machine), against the recommendation:\n"
        #expect(
            console.contains(
                heading
                    + "  HikariCP (cores × 2) + 1 = 5: 249/s, −68.9% of the recommended 32's throughput, p99 292 ms\n"
                    + "  max_connections = 64: not measured; the largest size measured is the recommended 32, 799/s\n"),
            "\(console)")
        #expect(!console.contains("Bounded by the server's connections"))
        let report = ReportTests.markdown(run)
        #expect(
            report.contains(
                "## Database\n\nThe connections went to `postgresql://REDACTED@127.0.0.1:5432/bench`, a server on this machine, which let the sweep hold 64 connections (`max_connections` less the superusers' reserve and other clients' connections): the sizes stayed within it; each connection set `statement_timeout` to 60 s, so a longer statement failed its task. Each pool thread held one connection and blocked on it, as a JDBC or psycopg pool does, so the pool's own threads were measured too."
            ), "\(report)")
        #expect(report.contains("- HikariCP (cores × 2) + 1 = 5: "), "\(report)")
        #expect(!report.contains("## Server"))
    }

    /// A limit of 32, where the curve still rises: the answer is at the bound, and the console
    /// and the report say so; 64, or no limit known, bounds nothing.
    @Test func anAnswerAtTheLimitIsSaidToBeBoundedByIt() throws {
        let run = try Self.run(limit: 32)
        #expect(RunAnalysis(run).boundingConnectionLimit == 32)
        let line =
            "Bounded by the server's connections: the server let the sweep hold 32 connections (max_connections less the superusers' reserve and other clients' connections), the sizes stopped there, and the answer is at that bound: throughput may still rise past it. Raise max_connections to measure further, or take 32 as the most this server allows."
        let console = try Self.console(run)
        #expect(console.contains("warning: " + line + "\n"), "\(console)")
        // The answer at the bound has no size above it measured: the rule's line says so too.
        #expect(
            console.contains(
                "\n  max_connections = 32: the recommended size, but no size above it was measured, so the curve does not show it is the knee\n"
            ), "\(console)")
        #expect(
            ReportTests.markdown(run).contains("**Bounded by the server's connections**: the server let the sweep"))
        // No larger size can be swept, so "sweep larger sizes" is not said; below the limit it is.
        #expect(!console.contains("No knee yet"), "\(console)")
        #expect(try Self.console(Self.run(limit: 64)).contains("warning: No knee yet: "))
        #expect(RunAnalysis(try Self.run(limit: 64)).boundingConnectionLimit == nil)
        #expect(RunAnalysis(try Self.run(limit: nil)).boundingConnectionLimit == nil)
    }

    /// An answer the limit cut short of the formula, with the sizes measured stopping below
    /// the limit: the caveat says the limit is the answer and what to measure, not that the
    /// sizes stopped at the limit.
    @Test func aLimitAboveTheSizesMeasuredSaysWhatToMeasure() {
        #expect(
            ReportCaveats.connectionLimit(20, largest: 8)
                == "**Bounded by the server's connections**: the formula asks for more connections than the server lets the sweep hold (20 connections: max_connections less the superusers' reserve and other clients' connections), so the recommendation is that limit; the sizes measured stopped at 8, with throughput still rising. Measure up to 20 to see whether the curve bends before it."
        )
    }
}
