extension Int {
    /// `value` rounded toward zero and clamped to Int's range; NaN is 0. Figures read from a
    /// file or derived from one can be anything (1e308, inf), and `Int(_:)` traps outside the
    /// range: every such conversion goes through here.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808.0 {  // 2^63
            self = .max
        } else if value < -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}

extension UInt64 {
    /// `value` rounded toward zero and clamped to UInt64's range; NaN and negatives are 0 (see
    /// `Int(saturating:)`).
    package init(saturating value: Double) {
        if value.isNaN || value <= 0 {
            self = 0
        } else if value >= 18_446_744_073_709_551_616.0 {  // 2^64
            self = .max
        } else {
            self = UInt64(value)
        }
    }
}
