extension Equatable {
    /// What a run records of a task: a copy with `mask` applied to its credentials, and whether
    /// that changed anything (a resume from the record alone then needs them given again).
    func masking(_ mask: (inout Self) -> Void) -> (task: Self, withheld: Bool) {
        var copy = self
        mask(&copy)
        return (copy, copy != self)
    }
}
