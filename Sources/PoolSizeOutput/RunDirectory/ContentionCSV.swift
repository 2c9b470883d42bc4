import PoolSizeModel

/// `contention.csv`: each tier's throughput and share when all tiers ran at once (`--contend`).
package enum ContentionCSV {
    /// The header's columns.
    package static let columns = ["qos", "share", "throughput_per_s", "effective_nice"]

    /// The file's text.
    package static func serialize(_ shares: [TierShare]) -> String {
        columns.joined(separator: ",") + "\n"
            + shares.map {
                "\($0.qos.rawValue),\(CSVField.number($0.share, decimals: 4)),\(CSVField.number($0.throughputPerSecond, decimals: 3)),\($0.effectiveNice)\n"
            }.joined()
    }

    /// The inverse of `serialize`; `path` names the file in errors, with the line at fault.
    package static func parse(_ text: String, path: String) throws(PoolSizeError) -> [TierShare] {
        let table = try CSVTable(text: text, path: path)
        let qos = try table.column("qos", flag: "contention.csv")
        let share = try table.numbers(try table.column("share", flag: "contention.csv"))
        let throughput = try table.numbers(try table.column("throughput_per_s", flag: "contention.csv"))
        let nice = try table.numbers(try table.column("effective_nice", flag: "contention.csv"), signed: true)
        return try table.strings(qos).enumerated().map { (index, name) throws(PoolSizeError) in
            guard let tier = QoSTier(rawValue: name) else {
                throw .invalidInput(
                    path: path,
                    message:
                        "line \(index + 2), column 'qos': '\(TerminalText.excerpt(name))' is not one of \(QoSTier.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            // setpriority(2): a nice is a whole number from -20 to 19.
            guard nice[index] == nice[index].rounded(), (-20...19).contains(nice[index]) else {
                throw .invalidInput(
                    path: path,
                    message:
                        "line \(index + 2), column 'effective_nice': '\(UnitFormat.number(nice[index]))' is not a nice value (a whole number from -20 to 19)"
                )
            }
            return TierShare(
                qos: tier, throughputPerSecond: throughput[index], share: share[index], effectiveNice: Int(nice[index]))
        }
    }
}
