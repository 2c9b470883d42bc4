// swift-tools-version: 6.0
// Measurement → statistics → output, never mixed (docs/architecture.md):
//   PoolSizeStats     pure math over [Double]; no dependencies, no I/O
//   PoolSizeModel     plain value types shared by every stage (specs, records, machine facts,
//                     recommendations) and the parsing of their files and flags
//   PoolSizeAnalysis  pure analysis over those values: recommender, capacity planner, run comparison
//   PoolSizeProcess   the one child-process runner (watchdog, SIGTERM then SIGKILL), for
//                     gnuplot, probes and commands; the guarded child (a server sweep's server,
//                     `observe -- CMD`); the one /proc reader and parser (Proc/); and
//                     `Platform`, the C library calls spelled differently on Linux and macOS
//   PoolSizeKit     pools, trial loops and the sweep's policy (CPoolSizeSys: its syscall shims); with
//                   HTTP, Postgres, Observe and Process, the targets that touch threads and clocks
//   PoolSizeHTTP    HTTP as a workload (libcurl's easy API, blocking on the pool's own thread,
//                   through CCurl and CPoolSizeCurl's shims) and `poolsize serve`'s load server (SwiftNIO)
//   CCurl           the system libcurl (apt: libcurl4-openssl-dev; scripts/install-build-libs.sh)
//   PoolSizePostgres  a PostgreSQL transaction as the task (`--postgres`: libpq through CPostgres,
//                   the system library; apt: libpq-dev), one blocking connection per pool thread
//   PoolSize        the library API: `import PoolSize` gives the per-QoS pool and `Sweep`, which
//                   sweeps a closure, any workload source, or a `Sweep.Target` (a server, a load
//                   tool, a PostgreSQL pool: built into its measurer here); the CLI is one of its users
//   PoolSizeObserve `poolsize observe`: a running process's pools from outside (/proc readers, a
//                   Poisson-timed sampler, the classification of samples and the pure estimator)
//   PoolSizeOutput  records in, text out (CSV, JSON, gnuplot, reports)
//   PoolSizeCLI     argument parsing into the library's values, then printing
//   poolsize        the executable: one line that runs PoolSizeCLI
import PackageDescription

let package = Package(
    name: "poolsize",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "poolsize", targets: ["poolsize"]),
        // One library: `import PoolSize` re-exports what a user needs of the targets behind it;
        // the rest is `package` (scripts/public-api.sh keeps the public types at 43 or fewer).
        .library(name: "PoolSize", targets: ["PoolSize"]),
    ],
    // Pinned to the minor version that is tested (`.upToNextMinor`): patch releases only, so a
    // new minor release of a dependency cannot change a build between two CI runs being compared.
    // CI prints the resolved versions (`swift package show-dependencies`).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", .upToNextMinor(from: "0.2.0")),
        .package(url: "https://github.com/jpsim/Yams", .upToNextMinor(from: "6.2.2")),
        .package(url: "https://github.com/yaslab/CSV.swift", .upToNextMinor(from: "2.5.2")),
        // `swift package generate-documentation --target PoolSize` for documentation hosts;
        // scripts/docs.sh builds the same catalog with the re-exported types' symbols linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", .upToNextMinor(from: "1.5.0")),
        // `poolsize serve`: SwiftNIO's HTTP/1 server pipeline. (--http's client is the system
        // libcurl: a blocking call on the pool's thread, see docs/http-client.md.)
        .package(url: "https://github.com/apple/swift-nio", .upToNextMinor(from: "2.101.2")),
    ],
    targets: [
        .target(name: "PoolSizeStats"),
        .target(name: "CPoolSizeSys"),
        // libcurl from the system, found with pkg-config; scripts/install-build-libs.sh installs it.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .yum(["libcurl-devel"])]
        ),
        // libpq from the system, found with pkg-config (apt: libpq-dev), for --postgres.
        .systemLibrary(
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .yum(["libpq-devel"])]
        ),
        // Typed wrappers over libcurl's variadic setopt/getinfo (Swift cannot call variadic C)
        // and the body and header callbacks, which count and discard.
        .target(name: "CPoolSizeCurl", dependencies: ["CCurl"]),
        .target(
            name: "PoolSizeModel",
            dependencies: [
                "PoolSizeStats", .product(name: "Yams", package: "Yams"), .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .target(name: "PoolSizeAnalysis", dependencies: ["PoolSizeModel", "PoolSizeStats"]),
        .target(name: "PoolSizeProcess", dependencies: ["PoolSizeModel", "CPoolSizeSys"]),
        .target(
            name: "PoolSizeKit",
            dependencies: [
                "PoolSizeModel", "PoolSizeAnalysis", "PoolSizeProcess", "PoolSizeStats", "CPoolSizeSys",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "PoolSizeHTTP",
            dependencies: [
                "PoolSizeKit", "PoolSizeModel", "PoolSizeObserve", "PoolSizeProcess", "PoolSizeStats", "CCurl",
                "CPoolSizeCurl",
                "CPoolSizeSys",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "PoolSizePostgres",
            dependencies: ["PoolSizeKit", "PoolSizeModel", "PoolSizeProcess", "CPostgres", "CPoolSizeSys"]
        ),
        .target(
            name: "PoolSizeObserve",
            dependencies: ["PoolSizeModel", "PoolSizeProcess", "PoolSizeStats", "CPoolSizeSys"]
        ),
        .target(
            name: "PoolSize",
            dependencies: [
                "PoolSizeAnalysis", "PoolSizeKit", "PoolSizeModel", "PoolSizeOutput", "PoolSizeStats", "PoolSizeHTTP",
                "PoolSizePostgres", "PoolSizeProcess", "CPoolSizeSys",
            ]),
        .target(
            name: "PoolSizeOutput",
            dependencies: [
                "PoolSizeModel", "PoolSizeAnalysis", "PoolSizeObserve", "PoolSizeProcess", "PoolSizeStats",
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .target(
            name: "PoolSizeCLI",
            dependencies: [
                "PoolSize", "PoolSizeModel", "PoolSizeAnalysis", "PoolSizeStats", "PoolSizeKit", "PoolSizeObserve",
                "PoolSizeOutput", "PoolSizeHTTP", "PoolSizePostgres", "PoolSizeProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "poolsize", dependencies: ["PoolSizeCLI"]),
        .testTarget(name: "PoolSizeStatsTests", dependencies: ["PoolSizeStats"]),
        .testTarget(name: "PoolSizeModelTests", dependencies: ["PoolSizeModel"]),
        .testTarget(
            name: "PoolSizeAnalysisTests", dependencies: ["PoolSizeAnalysis", "PoolSizeModel", "PoolSizeStats"]),
        .testTarget(name: "PoolSizeTests", dependencies: ["PoolSize", "PoolSizeModel", "PoolSizeOutput"]),
        .testTarget(
            name: "PoolSizeHTTPTests",
            dependencies: [
                "PoolSizeHTTP", "PoolSizeKit", "PoolSizeModel", "PoolSizeProcess",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .testTarget(name: "PoolSizeKitTests", dependencies: ["PoolSizeKit", "PoolSizeModel", "PoolSizeProcess"]),
        // PoolSizePostgres without a server: scripts run on a fake connection, the SQLSTATE and
        // wait-event classes, libpq's messages.
        .testTarget(
            name: "PoolSizePostgresTests",
            dependencies: ["PoolSizePostgres", "PoolSizeKit", "PoolSizeModel", "PoolSizeProcess"]),
        .testTarget(
            name: "PoolSizeObserveTests",
            dependencies: ["PoolSizeObserve", "PoolSizeModel", "PoolSizeProcess", "PoolSizeStats"]),
        .testTarget(
            name: "PoolSizeOutputTests",
            dependencies: ["PoolSizeOutput", "PoolSizeAnalysis", "PoolSizeModel", "PoolSizeObserve", "PoolSizeStats"]),
        .testTarget(
            name: "PoolSizeCLITests",
            dependencies: [
                "PoolSizeCLI", "PoolSizeAnalysis", "PoolSizeHTTP", "PoolSizeKit", "PoolSizeModel", "PoolSizeObserve",
                "PoolSizeOutput", "PoolSizeProcess", "poolsize",
            ]
        ),
    ]
)
