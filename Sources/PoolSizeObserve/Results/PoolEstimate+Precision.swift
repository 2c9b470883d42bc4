extension PoolEstimate {
    /// The relative precision `observedSeconds` asks of the known-IO W/C: ±10% at 95%.
    package static let wantedPrecision = 0.10

    /// How far below the known-IO W/C its 95% interval reaches, as a share of it; nil without
    /// an interval.
    package var knownIOHalfWidth: Double? {
        guard let ratio = waitToCPU, ratio.low > 0, let interval = waitToCPUInterval95 else { return nil }
        return max(0, 1 - interval.low / ratio.low)
    }

    /// How long an observation of this pool would take to know its known-IO W/C within
    /// `wantedPrecision`, from this one of `observedSeconds`: the batches' interval narrows as
    /// the square root of the time (a pool whose tasks arrive at random has a varying number of
    /// threads in IO at each sweep, and only more sweeps average it). nil when it already is.
    package func secondsForWantedPrecision(observedSeconds: Double) -> Double? {
        guard let half = knownIOHalfWidth, half > Self.wantedPrecision, observedSeconds > 0 else { return nil }
        return observedSeconds * (half / Self.wantedPrecision) * (half / Self.wantedPrecision)
    }
}
