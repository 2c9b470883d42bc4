import Foundation
import PoolSizeModel

/// Resolves `--workload`: a built-in name, or a path to a YAML spec file.
package enum WorkloadLoader {
    /// A built-in workload's spec by name, or a spec file's; errors name the flag or file.
    package static func load(_ argument: String) throws(PoolSizeError) -> WorkloadSpec {
        let looksLikePath = argument.contains("/") || argument.hasSuffix(".yaml") || argument.hasSuffix(".yml")
        if !looksLikePath, let builtin = BuiltinWorkloads.named(argument) { return builtin }
        guard looksLikePath || FileManager.default.fileExists(atPath: argument) else {
            let names = BuiltinWorkloads.all.map(\.name).joined(separator: ", ")
            throw .invalidParameter(
                .workload,
                message:
                    "unknown workload '\(argument)'; use one of \(names), or a path to a spec file (see workloads/README.md)"
            )
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .invalidParameter(
                .workload,
                message:
                    "'\(argument)' is a directory; pass a spec file in it (such as \(URL(fileURLWithPath: argument).appendingPathComponent("io.yaml").relativePath)) or one of \(BuiltinWorkloads.all.map(\.name).joined(separator: ", "))"
            )
        }
        guard FileManager.default.fileExists(atPath: argument) else {
            throw .inputNotFound(
                path: argument,
                hint:
                    "\(PoolSizeError.Parameter.workload.mention) takes a spec file or one of \(BuiltinWorkloads.all.map(\.name).joined(separator: ", "))"
            )
        }
        let text: String
        do { text = try String(contentsOfFile: argument, encoding: .utf8) } catch {
            throw .invalidSpec(file: argument, field: nil, message: "cannot be read as UTF-8 text")
        }
        return try WorkloadSpec.parse(yaml: text, file: argument)
    }
}
