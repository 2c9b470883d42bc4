import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing

/// Golden output of `calibrate` for a fixed result: table, CSV and JSON.
@Suite struct CalibrationOutputTests {
    static let result = CalibrationResult(
        rounds: 3,
        measurements: [
            CalibrationMeasurement(
                .threadCreateToStart, rounds: [27_000, 26_885, 30_000],
                method: "median of 255 pthread_create calls per round"),
            CalibrationMeasurement(.lock(.mutex), rounds: [11.5, 12, 11], method: "uncontended, net of the monitor"),
            CalibrationMeasurement(.contextSwitch, rounds: [2_700, 2_310, 3_100], method: "ping-pong, \"pinned\""),
            CalibrationMeasurement(.defaultStackSize, rounds: [8_388_608], method: "pthread_getattr_default_np"),
        ],
        notes: ["lock rows are net of the sweep's integrity check, 27.9 ns per section"])

    @Test func goldenTable() {
        let expected = """
            calibrate: median of 3 rounds per operation (after 1 warm-up round); ratio = measured / Apple

            operation                          measured       min–max    Apple   ratio  earlier here
            thread create → first instruction   27.0 µs  26.9–30.0 µs  90.0 µs  0.300×             —
            lock+unlock mutex                   11.5 ns  11.0–12.0 ns   200 ns  0.058×       25.0 ns
            context switch (1 CPU)              2.70 µs  2.31–3.10 µs        —       —             —
            default stack size                 8.00 MiB             —  512 KiB   16.0×             —

            Apple: Threading Programming Guide, "Thread Costs" table and "Synchronization" costs (2 GHz Core Duo, OS X 10.5)
            earlier here: figures measured earlier on this project's Linux machines
            note: lock rows are net of the sweep's integrity check, 27.9 ns per section

            """
        #expect(CalibrationTable.render(Self.result) == expected)
    }

    @Test func goldenCSV() {
        let expected = #"""
            operation_id,operation,unit,rounds,median,mean,ci95_low,ci95_high,min,max,apple_reference,ratio_to_apple,earlier_reference,method
            thread_create_to_start,thread create → first instruction,ns,3,27000.000,27961.667,23574.221,32349.113,26885.000,30000.000,90000.000,0.3000,,median of 255 pthread_create calls per round
            lock_mutex,lock+unlock mutex,ns,3,11.500,11.500,10.258,12.742,11.000,12.000,200.000,0.0575,25.000,"uncontended, net of the monitor"
            context_switch,context switch (1 CPU),ns,3,2700.000,2703.333,1722.073,3684.594,2310.000,3100.000,,,,"ping-pong, ""pinned"""
            default_stack_size,default stack size,bytes,1,8388608.000,8388608.000,,,8388608.000,8388608.000,524288.000,16.0000,,pthread_getattr_default_np

            """#
        #expect(CalibrationCSV.serialize(Self.result.measurements) == expected)
        #expect(
            CalibrationCSV.row(Self.result.measurements[0]).split(separator: ",", omittingEmptySubsequences: false)
                .count == CalibrationCSV.columns.count)
    }

    @Test func jsonCarriesEveryFigure() throws {
        var result = Self.result
        result.csvPath = "results/calibrate-20261122-051503.csv"
        let text = JSONExport.serialize(result)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["rounds"] as? Int == 3)
        #expect(json["csv_path"] as? String == "results/calibrate-20261122-051503.csv")
        let rows = try #require(json["measurements"] as? [[String: Any]])
        #expect(
            rows.map { $0["id"] as? String } == [
                "thread_create_to_start", "lock_mutex", "context_switch", "default_stack_size",
            ])
        #expect(rows[0]["median"] as? Double == 27_000)
        #expect(rows[0]["ratio"] as? Double == 0.3)
        #expect(rows[0]["unit"] as? String == "ns")
        #expect(rows[1]["earlier_reference"] as? Double == 25)
        #expect(rows[2]["reference"] == nil)
        #expect(rows[3]["unit"] as? String == "bytes")
        let summary = try #require(rows[0]["summary"] as? [String: Any])
        #expect(summary["minimum"] as? Double == 26_885)
        #expect((summary["confidence_interval95"] as? [String: Any])?["level"] as? Double == 0.95)
    }

    @Test(arguments: [
        (25.3, CostUnit.nanoseconds, "25.3 ns"), (46_200, .nanoseconds, "46.2 µs"),
        (1_500_000, .nanoseconds, "1.50 ms"),
        (999, .nanoseconds, "999 ns"), (512, .bytes, "512 B"), (8_704, .bytes, "8.50 KiB"),
        (8_388_608, .bytes, "8.00 MiB"),
    ])
    func valueFormat(value: Double, unit: CostUnit, text: String) {
        #expect(CalibrationValueFormat.value(value, unit) == text)
    }

    @Test func rangeUsesTheLargerEndsUnit() {
        #expect(CalibrationValueFormat.range(331, 26_200, .nanoseconds) == "0.331–26.2 µs")
        #expect(CalibrationValueFormat.ratio(0.0575) == "0.058×")
        #expect(CalibrationValueFormat.ratio(128) == "128×")
    }
}
