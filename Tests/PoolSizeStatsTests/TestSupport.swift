/// |actual − expected| ≤ tolerance, for `#expect(isClose(...))`.
func isClose(_ actual: Double, _ expected: Double, within tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance
}

/// |actual − expected| ≤ fraction·|expected|.
func isClose(_ actual: Double, _ expected: Double, relative fraction: Double) -> Bool {
    abs(actual - expected) <= fraction * abs(expected)
}
