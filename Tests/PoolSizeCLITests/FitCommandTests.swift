import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import PoolSizeOutput
import Testing

@Suite struct FitCommandTests {
    /// Noise-free USL data, σ = 0.05, κ = 0.001, λ = 1000: X(N) = 1000 N / (1 + 0.05 (N − 1) + 0.001 N (N − 1)).
    static func uslCSV(x: String = "concurrency", y: String = "throughput") -> String {
        var text = "\(x),\(y)\n"
        for n in 1...32 {
            let d = Double(n)
            text += "\(n),\(1000 * d / (1 + 0.05 * (d - 1) + 0.001 * d * (d - 1)))\n"
        }
        return text
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-fit-\(UUID()).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func recoversUSLCoefficientsFromForeignData() throws {
        let path = try Self.write(Self.uslCSV())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fits = try FitInput.fits(try CSVTable.load(path: path), x: nil, y: nil, tolerance: 0.05)
        #expect(fits.count == 1)
        let usl = try #require(fits[0].usl)
        #expect(abs(usl.sigma - 0.05) / 0.05 < 0.02)
        #expect(abs(usl.kappa - 0.001) / 0.001 < 0.02)
        #expect(abs(usl.lambda - 1000) / 1000 < 0.02)
        // N* = √((1 − σ)/κ) = √950 = 30.82
        #expect(abs(usl.peakConcurrency! - 30.82) < 0.5)
        // One group or several: always an array, each element versioned.
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(FitTable.json(fits).utf8)) as? [[String: Any]])
        #expect(array.count == 1)
        let json = array[0]
        for key in ["sigma", "kappa", "lambda", "peak_concurrency", "r_squared"] {
            #expect(json[key] is Double, "\(key)")
        }
        #expect(json["schema_version"] as? Int == 1)
    }

    @Test func namedColumns() throws {
        let path = try Self.write(Self.uslCSV(x: "users", y: "rps"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fits = try FitInput.fits(try CSVTable.load(path: path), x: "users", y: "rps", tolerance: 0.05)
        #expect(fits[0].usl != nil)
        let result = runCLI(["fit", path])
        #expect(result.code == 65)
        #expect(
            result.errors == [
                "error: \(path): cannot tell which column to use; name it with --x COLUMN (columns: users, rps)"
            ])
    }

    @Test func groupsSweepCSVsByCombination() throws {
        var text = "workload,pool,qos,primitive,pool_size,throughput_per_s\n"
        for n in 1...8 {
            text += "io,queue-pool,default,none,\(n),\(min(Double(n) * 100, 500))\n"
            text += "io,thread-pool,default,none,\(n),\(min(Double(n) * 90, 450))\n"
        }
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fits = try FitInput.fits(try CSVTable.load(path: path), x: nil, y: nil, tolerance: 0.05)
        #expect(fits.map(\.group) == ["io/queue-pool/default/none", "io/thread-pool/default/none"])
        #expect(fits.map { $0.knee?.size } == [5, 5])
    }

    /// An open-loop run's rows at two rates are two curves, named by rate; a closed loop's
    /// empty rate cell leaves the name as it was.
    @Test func openLoopRatesAreFittedApart() throws {
        var text = "workload,pool,qos,primitive,pool_size,throughput_mean_per_s,arrival_rate_per_s\n"
        for n in 1...8 {
            text += "io,queue-pool,default,none,\(n),\(min(Double(n) * 100, 300)),300.000\n"
            text += "io,queue-pool,default,none,\(n),\(min(Double(n) * 100, 600)),600.000\n"
        }
        text += "io,thread-pool,default,none,1,100,\nio,thread-pool,default,none,2,150,\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fits = try FitInput.fits(try CSVTable.load(path: path), x: nil, y: nil, tolerance: 0.05)
        #expect(
            fits.map(\.group) == [
                "io/queue-pool/default/none at 300/s", "io/queue-pool/default/none at 600/s",
                "io/thread-pool/default/none",
            ])
        // Carried rate flattens at the offered rate: 3 queues carry 300/s, 6 carry 600/s.
        #expect(fits.prefix(2).map { $0.knee?.size } == [3, 6])
    }

    /// Your own CSV with only a rate column: one curve per rate, named by the file. Cells are
    /// trimmed, and a row cut short before the rate column (no rate) neither crashes nor joins
    /// a rate's curve.
    @Test func aRateColumnAloneSplitsCurvesAndShortRowsAreSafe() throws {
        var text = "pool_size,throughput,arrival_rate_per_s\n"
        for n in 1...6 { text += "\(n),\(min(n * 100, 300)), 300\n\(n),\(min(n * 100, 500)),500\n" }
        text += "1,90\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fits = try FitInput.fits(try CSVTable.load(path: path), x: nil, y: nil, tolerance: 0.05)
        let file = URL(fileURLWithPath: path).lastPathComponent
        #expect(fits.map(\.group) == ["\(file) at 300/s", "\(file) at 500/s", file])
        #expect(fits.prefix(2).map { $0.knee?.size } == [3, 5])
    }

    @Test func badCellsNameTheLine() throws {
        let path = try Self.write("pool_size,throughput_per_s\n1,10\n2,fast\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = runCLI(["fit", path])
        #expect(result.code == 65)
        #expect(
            result.errors == [
                "error: \(path): line 3, column 'throughput_per_s': 'fast' is not a number ≥ 0 (decimals, e.g. 12 or 1.5e3)"
            ])
    }

    @Test func missingFile() {
        let result = runCLI(["fit", "/nonexistent/trials.csv"])
        #expect(result.code == 66)
        #expect(
            result.errors == [
                "error: /nonexistent/trials.csv: not found; pass a trials.csv, summary.csv or any CSV with a concurrency and a throughput column"
            ])
    }
}
