// swift-tools-version: 6.0
// An app that sizes its own pool: it sweeps its task (a closure) with poolsize's library,
// then builds the per-QoS pool with the recommended queue count.
import PackageDescription

let package = Package(
    name: "SweepClosure",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "poolsize", path: "../..")],
    targets: [
        .executableTarget(name: "SweepClosure", dependencies: [.product(name: "PoolSize", package: "poolsize")]),
        // The README's adaptive-pool batch, run by scripts/test.sh and scripts/benchmark-adaptive-batch.sh.
        .executableTarget(name: "AdaptiveBatch", dependencies: [.product(name: "PoolSize", package: "poolsize")]),
        // A server's pool and a PostgreSQL connection pool swept through the library (`Sweep.Target`),
        // run by scripts/test.sh against `poolsize serve` and a throw-away cluster.
        .executableTarget(name: "SweepTargets", dependencies: [.product(name: "PoolSize", package: "poolsize")]),
    ]
)
