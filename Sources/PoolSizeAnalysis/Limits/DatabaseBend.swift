import PoolSizeModel

/// Why a database connection pool's curve bends, from what the backends were doing at and past
/// the knee: the class most of their samples fall in (`WaitClass`) at the first measured size
/// past the knee, or at the knee when none was measured past it (a curve still rising). Lock
/// waits say the transactions queue for the same rows; a timed sleep, that the time is wait
/// and more connections overlap it; CPU, that the server's cores are the limit.
package struct DatabaseBend: Equatable, Sendable {
    /// The class most samples fell in.
    package var dominant: WaitClass
    /// Its share of the backends' samples at `size`.
    package var share: Double
    /// The size the figures are from.
    package var size: Int
    /// The backends' CPU at `size`, in cores busy; nil when the server is not on this machine.
    package var backendCores: Double?
    /// The share of the machine's cores busy at `size` when the server runs on this machine
    /// (its backends then share the cores with the pool); nil when it runs elsewhere.
    package var machineBusy: Double?
    /// Whether `size` is past the knee; false when the figures are the knee's own (no size
    /// past it was measured: the curve may still rise).
    package var pastKnee: Bool

    /// A size's samples below this say nothing: no cause is given from it.
    package static let minimumSamples = 20

    /// A cause as found.
    package init(
        dominant: WaitClass, share: Double, size: Int, backendCores: Double? = nil, machineBusy: Double? = nil,
        pastKnee: Bool = true
    ) {
        self.dominant = dominant
        self.share = share
        self.size = size
        self.backendCores = backendCores
        self.machineBusy = machineBusy
        self.pastKnee = pastKnee
    }

    /// The machine's cores were the limit: the server is on this machine, its cores were busy
    /// (`ExternalLimit.atCapacity` of them or more), and the backends were running or waiting
    /// for the client, whose threads wait for a core as the backends do (a backend woken by
    /// its client's command still shows ClientRead until it gets a core).
    package var sharedCPU: Bool {
        (dominant == .cpu || dominant == .client) && (machineBusy ?? 0) >= ExternalLimit.atCapacity
    }

    /// The cause from `sizes` (`DatabaseAtSize.pooled`) and the curve's knee (or the
    /// recommended size); nil when neither the knee nor a size past it has enough samples.
    package static func find(_ sizes: [DatabaseAtSize], knee: Int) -> DatabaseBend? {
        let sampled = sizes.filter { $0.figures.sampleCount >= minimumSamples }
        guard let at = sampled.first(where: { $0.size > knee }) ?? sampled.last(where: { $0.size == knee }),
            let best = at.figures.dominant
        else { return nil }
        return DatabaseBend(
            dominant: best, share: at.figures.share(best), size: at.size, backendCores: at.backendCores,
            machineBusy: at.figures.backendCPUSeconds == nil ? nil : at.machineBusy, pastKnee: at.size > knee)
    }
}
