import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeOutput
import Testing

/// A `--postgres` sweep's database figures in words and files: the sentence for each cause,
/// and the trials.csv columns and JSON key that keep them for the report and a resume.
struct DatabaseOutputTests {
    @Test(arguments: [
        (
            DatabaseBend(dominant: .lock, share: 0.71, size: 16),
            "the time goes to lock waits (Lock 71% of the backends' samples at 16): the transactions queue for the same rows, so more connections add waiting, not throughput"
        ),
        (
            DatabaseBend(dominant: .timeout, share: 0.834, size: 64, pastKnee: false),
            "the time is wait, not CPU (Timeout/pg_sleep 83% of the backends' samples at 64): more connections overlap more of it"
        ),
        (
            DatabaseBend(dominant: .cpu, share: 0.78, size: 8, backendCores: 1.9),
            "the server's CPU (CPU 78% of the backends' samples at 8; the backends used 1.90 cores): more connections queue for its cores"
        ),
        (
            DatabaseBend(dominant: .client, share: 0.6, size: 4),
            "the backends wait for the client (Client 60% of the backends' samples at 4): the pool's side (its threads' CPU, the network) limits, not the server"
        ),
        (
            DatabaseBend(dominant: .client, share: 1, size: 64, backendCores: 0.5, machineBusy: 0.95),
            "the CPU the pool and the server share (the machine's cores 95% busy; Client 100% of the backends' samples at 64: each backend waits for a client thread that waits for a core): more connections queue for the cores"
        ),
        (
            DatabaseBend(dominant: .cpu, share: 0.7, size: 16, backendCores: 1.2, machineBusy: 0.9),
            "the server's CPU (CPU 70% of the backends' samples at 16; the backends used 1.20 cores, the machine's 90% busy): more connections queue for its cores"
        ),
    ])
    func theSentenceNamesTheCause(bend: DatabaseBend, sentence: String) {
        #expect(DatabaseProse.sentence(bend) == sentence)
    }

    @Test func theLeadSaysWhetherTheCurveBent() {
        #expect(DatabaseProse.lead(DatabaseBend(dominant: .lock, share: 1, size: 4)) == "why the curve bends: ")
        #expect(
            DatabaseProse.lead(DatabaseBend(dominant: .timeout, share: 1, size: 4, pastKnee: false))
                == "why the curve still rises: ")
    }

    static func record(_ watched: TrialRecord.Watched) -> TrialRecord {
        var r = TrialRecord(
            runID: "20261126-101500-pg", workload: "postgres-bench", pool: .queuePool, qos: .default, primitive: .none,
            poolSize: 4, repetition: 1, tasks: 387, wallSeconds: 0.24, throughputPerSecond: 1612.5,
            cpuMicrosecondsPerTask: 54, waitMicrosecondsPerTask: 2192, waitCPURatio: 40.6, utilization: 0.02,
            peakConcurrency: 4, threads: 4, effectiveNice: 0, integrity: .notApplicable, errors: 290)
        r.watched = watched
        return r
    }

    /// The figures are columns of their own, empty for a trial that watched no database, and
    /// read back as written (the report and `--resume` read this file).
    @Test func trialsCSVKeepsTheFigures() throws {
        let figures = DatabaseFigures(
            errorsBySQLState: ["40001": 288, "40P01": 2], backendCPUSeconds: 0.054078,
            waitSamples: [.lock: 37, .client: 13, .timeout: 13, .cpu: 1], snapshots: 16)
        let records = [Self.record(.database(figures)), Self.record(.nothing)]
        let text = TrialsCSV.serialize(records)
        let lines = text.split(separator: "\n")
        #expect(
            lines[0].hasSuffix(
                "db_snapshots,db_errors,db_backend_cpu_s,db_lock_samples,db_lwlock_samples,db_io_samples,db_client_samples,db_timeout_samples,db_cpu_samples,db_other_samples,db_peak_connections,window_end,throughput_margin"
            ))
        // A sweep's own connections are not counted at their peak: they outlive their trial.
        #expect(lines[1].hasSuffix(",16,40001:288 40P01:2,0.054078,37,0,0,13,13,1,0,,planned,"), "\(lines[1])")
        #expect(lines[2].hasSuffix(",,,,,,,,,,,,planned,"), "\(lines[2])")
        let back = try TrialsCSV.parse(text, path: "trials.csv")
        #expect(back.map(\.watched) == records.map(\.watched))
    }

    /// A file written before the database's columns reads as trials that watched nothing.
    @Test func aFileWithoutTheColumnsReadsAsNoDatabase() throws {
        let text = TrialsCSV.serialize([Self.record(.nothing)])
        let names = TrialsCSV.columnNames
        let keep = names.indices.filter { !names[$0].hasPrefix("db_") }
        let trimmed =
            text.split(separator: "\n").map { line in
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                return keep.map { String(cells[$0]) }.joined(separator: ",")
            }.joined(separator: "\n") + "\n"
        let back = try TrialsCSV.parse(trimmed, path: "trials.csv")
        #expect(back.first?.watched == TrialRecord.Watched.nothing)
    }

    /// A damaged errors cell names the column and the form expected.
    @Test func aDamagedErrorsCellIsRefused() {
        let text = TrialsCSV.serialize([
            Self.record(.database(DatabaseFigures(errorsBySQLState: ["40001": 2], snapshots: 3)))
        ]).replacingOccurrences(of: "40001:2", with: "40001")
        #expect(throws: PoolSizeError.self) { try TrialsCSV.parse(text, path: "trials.csv") }
    }

    /// JSON: under `database`, absent for a trial that watched nothing.
    @Test func jsonKeepsTheFigures() throws {
        let figures = DatabaseFigures(
            errorsBySQLState: ["40001": 3], backendCPUSeconds: nil, waitSamples: [.lock: 7], snapshots: 2)
        let record = Self.record(.database(figures))
        let data = try JSONEncoder().encode(record)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"database\""))
        #expect(text.contains("\"lock\":7"))
        #expect(try JSONDecoder().decode(TrialRecord.self, from: data) == record)
        let none = String(decoding: try JSONEncoder().encode(Self.record(.nothing)), as: UTF8.self)
        #expect(!none.contains("\"database\""))
    }

    /// An open-loop trial at `rate` and `size` that watched the database.
    static func openRecord(rate: ArrivalRate, size: Int, repetition: Int, figures: DatabaseFigures) -> TrialRecord {
        var r = record(.database(figures))
        r.poolSize = size
        r.repetition = repetition
        r.tasks = 400
        r.errors = 0
        r.loop = .open(
            OpenLoopFigures(
                arrivalRate: rate, offeredPerSecond: rate.perSecond, achievedPerSecond: rate.perSecond,
                backlogMean: 0, backlogMax: 1, backlogGrowth: 0, stable: true))
        return r
    }

    /// An open loop's table keeps each rate apart (a size's waits at one rate say nothing of
    /// another) and pools a size's repetitions within a rate: 2 × 0.02 s of backend CPU over
    /// 800 transactions is 50 µs each; 3 Lock samples of 10 + 10 are 15%.
    @Test func anOpenLoopTableHasARowPerRateAndSize() {
        let light = DatabaseFigures(backendCPUSeconds: 0.02, waitSamples: [.client: 7, .lock: 3], snapshots: 10)
        let heavy = DatabaseFigures(
            errorsBySQLState: ["40001": 4], backendCPUSeconds: 0.1, waitSamples: [.lock: 9, .cpu: 1], snapshots: 10)
        let records = [
            Self.openRecord(rate: 2000, size: 8, repetition: 1, figures: heavy),
            Self.openRecord(rate: 500, size: 4, repetition: 1, figures: light),
            Self.openRecord(
                rate: 500, size: 4, repetition: 2,
                figures: DatabaseFigures(backendCPUSeconds: 0.02, waitSamples: [.client: 10], snapshots: 10)),
            Self.openRecord(rate: 500, size: 8, repetition: 1, figures: light),
        ]
        let byRate = DatabaseProse.figuresByRate(records, combination: records[0].combination, cores: 2)
        #expect(byRate.map(\.rate) == [500, 2000])
        #expect(byRate.map { $0.sizes.map(\.size) } == [[4, 8], [8]])
        #expect(DatabaseProse.rateHeader.prefix(4) == ["rate", "size", "errors by SQLSTATE", "server CPU µs/txn"])
        #expect(
            DatabaseProse.rateRows(byRate) == [
                ["500/s", "4", "0", "50.0", "15%", "0%", "0%", "85%", "0%", "0%", "0%"],
                ["500/s", "8", "0", "50.0", "30%", "0%", "0%", "70%", "0%", "0%", "0%"],
                ["2000/s", "8", "40001:4", "250", "90%", "0%", "0%", "0%", "0%", "10%", "0%"],
            ])
    }
}
