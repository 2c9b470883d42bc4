/// Just enough dense linear algebra for 3-parameter least squares: Gaussian elimination with
/// partial pivoting on tiny symmetric systems (normal equations of the USL fit).
enum LinearAlgebra {
    /// Solves `a · x = b` for square `a`; nil when `a` is singular to working precision.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        let n = b.count
        var m = a
        var x = b
        let scale = a.flatMap { $0 }.map(abs).max() ?? 0
        guard scale > 0, scale.isFinite else { return nil }
        for column in 0..<n {
            let pivot = (column..<n).max { abs(m[$0][column]) < abs(m[$1][column]) }!
            guard abs(m[pivot][column]) > scale * 1e-14 else { return nil }
            if pivot != column {
                m.swapAt(pivot, column)
                x.swapAt(pivot, column)
            }
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                guard factor != 0 else { continue }
                for k in column..<n { m[row][k] -= factor * m[column][k] }
                x[row] -= factor * x[column]
            }
        }
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = x[row]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = sum / m[row][row]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// The inverse of a square matrix, column by column; nil when singular.
    static func inverse(_ a: [[Double]]) -> [[Double]]? {
        let n = a.count
        var columns: [[Double]] = []
        for j in 0..<n {
            var unit = [Double](repeating: 0, count: n)
            unit[j] = 1
            guard let column = solve(a, unit) else { return nil }
            columns.append(column)
        }
        return (0..<n).map { i in (0..<n).map { j in columns[j][i] } }
    }

    /// Solves a symmetric positive (semi)definite system after Jacobi scaling to a unit
    /// diagonal, so columns in wildly different units (σ ~ 0.01, κ ~ 1e-4, λ ~ 1) do not trip
    /// the singularity test. nil when singular or a diagonal entry is not positive.
    static func solveSymmetric(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        guard let d = jacobiScale(a) else { return nil }
        let scaled = a.indices.map { i in a.indices.map { j in a[i][j] / (d[i] * d[j]) } }
        guard let y = solve(scaled, b.indices.map { b[$0] / d[$0] }) else { return nil }
        return y.indices.map { y[$0] / d[$0] }
    }

    /// Inverse of a symmetric positive definite matrix with the same scaling as `solveSymmetric`.
    static func inverseSymmetric(_ a: [[Double]]) -> [[Double]]? {
        guard let d = jacobiScale(a) else { return nil }
        let scaled = a.indices.map { i in a.indices.map { j in a[i][j] / (d[i] * d[j]) } }
        guard let inv = inverse(scaled) else { return nil }
        return a.indices.map { i in a.indices.map { j in inv[i][j] / (d[i] * d[j]) } }
    }

    private static func jacobiScale(_ a: [[Double]]) -> [Double]? {
        let d = a.indices.map { a[$0][$0].squareRoot() }
        return d.allSatisfy({ $0 > 0 && $0.isFinite }) ? d : nil
    }

    /// JᵀJ and Jᵀr for a Jacobian given as rows (one row per observation).
    static func normalEquations(jacobian: [[Double]], residuals: [Double]) -> (jtj: [[Double]], jtr: [Double]) {
        let p = jacobian.first?.count ?? 0
        var jtj = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        var jtr = [Double](repeating: 0, count: p)
        for (row, r) in zip(jacobian, residuals) {
            for i in 0..<p {
                jtr[i] += row[i] * r
                for j in 0..<p { jtj[i][j] += row[i] * row[j] }
            }
        }
        return (jtj, jtr)
    }
}
