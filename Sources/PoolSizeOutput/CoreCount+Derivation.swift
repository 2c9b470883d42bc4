import PoolSizeModel

extension CoreCount {
    /// How `effective` was derived, as the console and the reports say it: an override as the
    /// flag that gave it, with the count the machine would have given.
    package var derivation: String {
        if let override { return "--cores \(override) (derived would be \(derived))" }
        return measuredDerivation
    }
}
