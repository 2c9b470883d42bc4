import ArgumentParser
import PoolSizeModel

/// `poolsize list`: every value the sweep's axes accept, one line each.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in workloads, pool kinds, QoS tiers and synchronization primitives.")

    func run() {
        print(Self.render(), terminator: "")
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
        for primitive in PrimitiveKind.allCases { out += "  \(pad(primitive.rawValue, 18))\(primitive.summary)\n" }
        return out
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
