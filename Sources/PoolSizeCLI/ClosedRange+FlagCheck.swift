import PoolSizeModel

extension ClosedRange where Bound == Int {
    /// Refuses `value` of a whole-number flag outside this range, in the words every command
    /// uses for it ("must be 1 to 50, got 0"), with `hint` after them when given.
    func check(_ value: Int, flag: String, hint: String? = nil) throws(PoolSizeError) {
        guard !contains(value) else { return }
        let words = "must be \(lowerBound) to \(upperBound), got \(value)"
        throw .invalidOption(flag: flag, message: hint.map { "\(words); \($0)" } ?? words)
    }
}
