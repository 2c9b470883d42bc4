import PoolSizeModel

/// `contention.csv`: each tier's throughput and share when all tiers ran at once (`--contend`).
public enum ContentionCSV {
    public static let columns = ["qos", "share", "throughput_per_s", "effective_nice"]

    public static func serialize(_ shares: [TierShare]) -> String {
        columns.joined(separator: ",") + "\n" + shares.map {
            "\($0.qos.rawValue),\(CSVField.number($0.share, decimals: 4)),\(CSVField.number($0.throughputPerSecond, decimals: 3)),\($0.effectiveNice)\n"
        }.joined()
    }
}
