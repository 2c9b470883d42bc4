import PoolSizeAnalysis
import PoolSizeModel

/// The words for a `--postgres` sweep's database figures: why the curve bends
/// (`DatabaseBend`) and each size's row of the table the console and report show.
package enum DatabaseProse {
    /// Why the curve bends, as a clause: "the time goes to lock waits (Lock 71% of the
    /// backends' samples at 16)…".
    package static func sentence(_ bend: DatabaseBend) -> String {
        let figure = "\(bend.dominant.label) \(percent(bend.share)) of the backends' samples at \(bend.size)"
        switch bend.dominant {
        case .lock:
            return
                "the time goes to lock waits (\(figure)): the transactions queue for the same rows, so more connections add waiting, not throughput"
        case .lwlock:
            return
                "the time goes to the server's internal locks (\(figure)): more connections contend inside the server"
        case .io:
            return "the time goes to storage (\(figure)): more connections queue for the disk"
        case .client where bend.sharedCPU:
            return
                "the CPU the pool and the server share (the machine's cores \(percent(bend.machineBusy ?? 0)) busy; \(figure): each backend waits for a client thread that waits for a core): more connections queue for the cores"
        case .client:
            return
                "the backends wait for the client (\(figure)): the pool's side (its threads' CPU, the network) limits, not the server"
        case .timeout:
            return "the time is wait, not CPU (\(figure)): more connections overlap more of it"
        case .cpu:
            var cores = bend.backendCores.map { "; the backends used \(UnitFormat.significant($0)) cores" } ?? ""
            if bend.sharedCPU { cores += ", the machine's \(percent(bend.machineBusy ?? 0)) busy" }
            return "the server's CPU (\(figure)\(cores)): more connections queue for its cores"
        case .other:
            return "the time goes to other waits (\(figure))"
        }
    }

    /// A share in whole percent: the samples are a few hundred, a finer figure would be noise.
    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }

    /// Where the sentence goes: "why the curve bends: " past the knee, "why the curve still
    /// rises: " when the figures are those of the largest size, the knee not yet reached.
    package static func lead(_ bend: DatabaseBend) -> String {
        bend.pastKnee ? "why the curve bends: " : "why the curve still rises: "
    }

    /// The table's header: size, errors by SQLSTATE, the backends' CPU per transaction, then
    /// each class's share.
    package static let header =
        ["size", "errors by SQLSTATE", "server CPU µs/txn"] + WaitClass.allCases.map(\.label)

    /// One size's row of the table, as plain text.
    package static func row(_ size: DatabaseAtSize) -> [String] {
        let errors = size.figures.errorsText
        return [
            String(size.size), errors.isEmpty ? "0" : errors,
            size.backendCPUMicrosecondsPerTransaction.map(UnitFormat.significant) ?? "–",
        ]
            + WaitClass.allCases.map { kind in
                size.figures.sampleCount > 0 ? percent(size.figures.share(kind)) : "–"
            }
    }

    /// An open loop's table header: the offered rate, then the closed loop's columns.
    package static let rateHeader = ["rate"] + header

    /// An open loop's rows: each offered rate's sizes, rates ascending, the rate first.
    package static func rateRows(_ byRate: [(rate: ArrivalRate, sizes: [DatabaseAtSize])]) -> [[String]] {
        byRate.flatMap { rate, sizes in sizes.map { [UnitFormat.rate(rate.perSecond)] + row($0) } }
    }

    /// An open loop's figures: for each offered rate of `combination`'s valid trials, its sizes'
    /// figures, repetitions pooled; rates and sizes ascending, empty when the run watched no
    /// database. A size's figures at one rate say nothing of another, so rates are not pooled.
    package static func figuresByRate(_ records: [TrialRecord], combination: Combination, cores: Int?) -> [(
        rate: ArrivalRate, sizes: [DatabaseAtSize]
    )] {
        let mine = records.valid.filter { $0.combination == combination }
        return Set(mine.compactMap(\.arrivalRate)).sorted().compactMap { rate in
            let sizes = DatabaseAtSize.pooled(mine.filter { $0.arrivalRate == rate }, cores: cores)
            return sizes.isEmpty ? nil : (rate, sizes)
        }
    }

    /// The sizes of the recommended configuration's valid trials, and why its curve bends from
    /// them at `knee`; empty sizes when the run watched no database.
    package static func figures(_ records: [TrialRecord], combination: Combination, knee: Int, cores: Int?) -> (
        sizes: [DatabaseAtSize], bend: DatabaseBend?
    ) {
        let sizes = DatabaseAtSize.pooled(records.valid.filter { $0.combination == combination }, cores: cores)
        return (sizes, DatabaseBend.find(sizes, knee: knee))
    }
}
