import Foundation

/// Parses the axes (`pools`, `tiers`, `primitives`): `all`, or a comma-separated list
/// of values. Unknown values are refused with the list of valid ones.
package enum AxisSelection {
    package static func pools(_ text: String) throws(PoolSizeError) -> [PoolKind] {
        let valid = PoolKind.inProcess.map(\.rawValue)
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names.contains(PoolKind.server.rawValue) {
            throw .invalidParameter(
                .pools,
                message:
                    "'server' is the pool inside a server poolsize starts; give \(PoolSizeError.Parameter.server.mention) with the server's command instead"
            )
        }
        return try parse(text, parameter: .pools, valid: valid, allValues: PoolKind.inProcess) { name in
            PoolKind.inProcess.first { $0.rawValue == name }
        }
    }

    /// Tiers also accept the legacy dispatch priorities `high` and `low` (and `default`,
    /// `background`), mapped as docs/platform.md says.
    package static func tiers(_ text: String) throws(PoolSizeError) -> [QoSTier] {
        try parse(
            text, parameter: .tiers, valid: QoSTier.allCases.map(\.rawValue) + QoSTier.aliases.keys.sorted(),
            allValues: QoSTier.allCases
        ) { QoSTier(name: $0) }
    }

    /// `all` means every primitive that protects its section (`unprotected` must be named).
    package static func primitives(_ text: String) throws(PoolSizeError) -> [PrimitiveKind] {
        try parse(
            text, parameter: .primitives, valid: PrimitiveKind.allCases.map(\.rawValue),
            allValues: PrimitiveKind.allCases.filter { $0 != .unprotected }
        ) { PrimitiveKind(rawValue: $0) }
    }

    static func parse<T: Equatable & CaseIterable>(
        _ text: String, parameter: PoolSizeError.Parameter, valid: [String], allValues: [T]? = nil, make: (String) -> T?
    ) throws(PoolSizeError) -> [T] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if items == ["all"] { return allValues ?? Array(T.allCases) }
        var result: [T] = []
        for item in items {
            guard !item.isEmpty else {
                throw .invalidParameter(
                    parameter, message: "empty value in '\(text)'; valid values: all, \(valid.joined(separator: ", "))"
                )
            }
            guard let value = make(item) else {
                throw .invalidParameter(
                    parameter, message: "unknown value '\(item)'; valid values: all, \(valid.joined(separator: ", "))")
            }
            if !result.contains(value) { result.append(value) }
        }
        return result
    }
}
