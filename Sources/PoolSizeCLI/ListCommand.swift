import ArgumentParser
import PoolSizeModel
import PoolSizeOutput

/// `poolsize list`: every value the sweep's axes accept, one line each.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in workloads, pool kinds, QoS tiers and synchronization primitives.")

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() {
        print(format == .json ? JSONExport.serialize(Self.listing()) : Self.render(), terminator: "")
    }

    /// `list --format json`: every axis value with its one-line summary.
    struct Listing: Encodable {
        struct Item: Encodable { var name: String; var summary: String }
        struct Workload: Encodable { var name: String; var description: String; var cpuUs: Double; var waitUs: Double }
        var workloads: [Workload]
        var pools: [Item]
        var qosTiers: [Item]
        var primitives: [Item]
    }

    static func listing() -> Listing {
        Listing(
            workloads: BuiltinWorkloads.all.map {
                .init(
                    name: $0.name, description: $0.description, cpuUs: $0.cpuMicroseconds, waitUs: $0.waitMicroseconds)
            },
            pools: PoolKind.allCases.map { .init(name: $0.rawValue, summary: $0.summary) },
            qosTiers: QoSTier.allCases.map { .init(name: $0.rawValue, summary: $0.summary) },
            primitives: PrimitiveKind.allCases.map {
                .init(name: $0.rawValue, summary: ParameterFlags.word($0.summary))
            })
    }

    static func render() -> String {
        var out = "workloads (--workload NAME, or a path to a spec file):\n"
        for spec in BuiltinWorkloads.all {
            out += "  \(pad(spec.name, 18))\(spec.description)\n"
        }
        out += "\npool kinds (--pool):\n"
        for kind in PoolKind.allCases { out += "  \(pad(kind.rawValue, 18))\(kind.summary)\n" }
        out += "\nQoS tiers (--qos; aliases: high = user-initiated, low = utility):\n"
        for tier in QoSTier.allCases { out += "  \(pad(tier.rawValue, 18))\(tier.summary)\n" }
        out += "\nsynchronization primitives (--primitive):\n"
        for primitive in PrimitiveKind.allCases {
            out += "  \(pad(primitive.rawValue, 18))\(ParameterFlags.word(primitive.summary))\n"
        }
        return out
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
