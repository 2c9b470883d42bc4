import PoolSizeModel

extension QoSTier {
    /// This tier's value of five given in tier order, most urgent first: the one switch that
    /// Dispatch's, Foundation's and Swift concurrency's names for the tiers are read through.
    func choose<Value>(
        _ userInteractive: Value, _ userInitiated: Value, _ default: Value, _ utility: Value, _ background: Value
    ) -> Value {
        switch self {
        case .userInteractive: userInteractive
        case .userInitiated: userInitiated
        case .default: `default`
        case .utility: utility
        case .background: background
        }
    }
}
