import PoolSizeModel

/// The database's figures of one pool size, its repetitions pooled: what the report's table
/// shows per size and what `DatabaseBend` reads.
package struct DatabaseAtSize: Equatable, Sendable {
    /// The pool size (connections).
    package var size: Int
    /// The repetitions' figures summed.
    package var figures: DatabaseFigures
    /// Transactions of the repetitions' windows, failed ones included.
    package var transactions: Double
    /// The repetitions' windows, summed, seconds.
    package var windowSeconds: Double
    /// The share of the machine's cores busy over the windows (this process's and every other's,
    /// the backends' among them), the repetitions' mean.
    package var machineBusy = 0.0

    /// The backends' CPU per transaction, µs; nil when the server is not on this machine or no
    /// transaction ran.
    package var backendCPUMicrosecondsPerTransaction: Double? {
        guard let seconds = figures.backendCPUSeconds, transactions > 0 else { return nil }
        return seconds * 1e6 / transactions
    }

    /// The backends' CPU over the window, in cores busy; nil when unknown.
    package var backendCores: Double? {
        guard let seconds = figures.backendCPUSeconds, windowSeconds > 0 else { return nil }
        return seconds / windowSeconds
    }

    /// Each size's figures, from the trials that watched a database, by size; `cores` (the
    /// sweep's) turns the backends' CPU into a share of the machine, since a trial's other load
    /// leaves them out (they are the trial's own work); unknown cores leave them out here too.
    package static func pooled(_ records: [TrialRecord], cores: Int?) -> [DatabaseAtSize] {
        var bySize: [Int: DatabaseAtSize] = [:]
        var repetitions: [Int: Int] = [:]
        for record in records {
            guard let figures = record.watched.database else { continue }
            let transactions = record.tasks + Double(record.errors)
            var busy = record.utilization + record.otherLoad
            if let cores, cores > 0, let seconds = figures.backendCPUSeconds, record.wallSeconds > 0 {
                busy += seconds / (record.wallSeconds * Double(cores))
            }
            repetitions[record.poolSize, default: 0] += 1
            if let known = bySize[record.poolSize] {
                bySize[record.poolSize] = DatabaseAtSize(
                    size: record.poolSize, figures: known.figures.adding(figures),
                    transactions: known.transactions + transactions,
                    windowSeconds: known.windowSeconds + record.wallSeconds, machineBusy: known.machineBusy + busy)
            } else {
                bySize[record.poolSize] = DatabaseAtSize(
                    size: record.poolSize, figures: figures, transactions: transactions,
                    windowSeconds: record.wallSeconds, machineBusy: busy)
            }
        }
        return bySize.values.map { size in
            var mean = size
            mean.machineBusy /= Double(repetitions[size.size] ?? 1)
            return mean
        }.sorted { $0.size < $1.size }
    }
}
