import Foundation
import PoolSizeModel
import PoolSizeAnalysis

/// `poolsize fit` output: a table for people, JSON for scripts.
package enum FitTable {
    package static func render(_ fits: [CurveFit]) -> String {
        var rows = [["group", "points", "sigma", "kappa", "lambda", "R²", "N*", "knee", "note"]]
        for f in fits {
            let u = f.usl
            rows.append([
                f.group, String(f.points),
                u.map { "\(sig($0.sigma)) ± \(sig($0.sigmaStandardError))" } ?? "–",
                u.map { "\(sig($0.kappa)) ± \(sig($0.kappaStandardError))" } ?? "–",
                u.map { "\(sig($0.lambda)) ± \(sig($0.lambdaStandardError))" } ?? "–",
                u.map { String(format: "%.4f", $0.rSquared) } ?? "–",
                u?.peakConcurrency.map { String(format: "%.1f", $0) } ?? "–",
                f.knee.map { String($0.size) } ?? "–",
                f.refusalSummary ?? (u?.peakConcurrency == nil ? "no peak: throughput still rising (κ = 0)" : ""),
            ])
        }
        return ConsoleSummary.align(rows)
    }

    /// An array, for one group or several: one shape for a reader to handle.
    package static func json(_ fits: [CurveFit]) -> String {
        JSONExport.serialize(fits)
    }

    /// Four significant digits, exponent only for very small or large values.
    static func sig(_ value: Double) -> String {
        let magnitude = abs(value)
        if value == 0 { return "0" }
        if magnitude < 1e-3 || magnitude >= 1e6 { return String(format: "%.3e", value) }
        return String(format: "%.4g", value)
    }
}
