import PoolSizeModel
import PoolSizeStats

extension RunData {
    /// `adaptive search: 16 trials, the grid would have run 48 (saved 67%)` for a run that
    /// searched adaptively and finished; nil otherwise. The console, summary.txt and the
    /// report print the same line.
    package var searchLine: String? {
        guard plan?.search == .adaptive, let grid = info?.gridTrials, grid > 0 else { return nil }
        let trials = records.count
        let saved = Double(grid - trials) / Double(grid)
        let verdict =
            saved >= 0
            ? "saved \(Int(saturating: (saved * 100).rounded()))%"
            : "\(Int(saturating: (-saved * 100).rounded()))% more"
        return "adaptive search: \(trials) trial\(trials == 1 ? "" : "s"), the grid would have run \(grid) (\(verdict))"
    }
}
