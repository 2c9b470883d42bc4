import Foundation
import PoolSizeModel
import PoolSizeOutput
import PoolSizeStats
import Testing

@Suite struct TrialsCSVTests {
    static let records = [
        TrialRecord(
            runID: "20261122-051500-io", workload: "io", pool: .queuePool, qos: .default, primitive: .none,
            poolSize: 32,
            repetition: 2, tasks: 1119.6, wallSeconds: 0.48, throughputPerSecond: 2332.5,
            cpuMicrosecondsPerTask: 1025.25,
            waitMicrosecondsPerTask: 15100.125, waitCPURatio: 14.728, utilization: 0.97125, peakConcurrency: 32,
            threads: 33,
            effectiveNice: 0, integrity: .notApplicable,
            latency: LatencyPercentiles(p50: 17_000, p90: 18_250.5, p99: 21_000, p999: 25_000, max: 26_123.45),
            execution: LatencyPercentiles(p50: 16_100, p90: 16_300, p99: 16_900, p999: 17_000, max: 17_100),
            voluntaryContextSwitches: 2300, involuntaryContextSwitches: 40, maxRSSKilobytes: 9120, processThreads: 37,
            otherLoad: 0.0125),
        TrialRecord(
            runID: "20261122-051500-io", workload: "db, \"primary\"", pool: .queuePool, qos: .utility,
            primitive: .mutex, poolSize: 1,
            repetition: 1, tasks: 30, wallSeconds: 0.5, throughputPerSecond: 60, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15666.6666666, waitCPURatio: .nan, utilization: 0.03, peakConcurrency: 1,
            threads: 1,
            effectiveNice: 2, integrity: .ok, criticalSections: 30),
    ]

    @Test func goldenCSV() {
        let expected = #"""
            run_id,workload,pool,qos,primitive,pool_size,repetition,tasks,wall_s,throughput_per_s,cpu_us_per_task,wait_us_per_task,wait_cpu_ratio,utilization,peak_concurrency,threads,effective_nice,integrity,critical_sections,latency_p50_us,latency_p90_us,latency_p99_us,latency_p999_us,latency_max_us,exec_p50_us,exec_p99_us,voluntary_ctx_switches,involuntary_ctx_switches,max_rss_kb,process_threads,other_load,errors,invalid_reason,arrival_rate_per_s,offered_per_s,backlog_mean,backlog_max,backlog_growth,stable,unfinished,dispatch_lag_p99_us,size_steps,driver_cpu_us_per_request,server_processes,server_interpreter_lock,server_connection_per_request,db_snapshots,db_errors,db_backend_cpu_s,db_lock_samples,db_lwlock_samples,db_io_samples,db_client_samples,db_timeout_samples,db_cpu_samples,db_other_samples,db_peak_connections,window_end,throughput_margin
            20261122-051500-io,io,queue-pool,default,none,32,2,1119.600,0.480000,2332.500,1025.250,15100.125,14.7280,0.9712,32,33,0,n/a,0,17000.0,18250.5,21000.0,25000.0,26123.5,16100.0,16900.0,2300,40,9120,37,0.0125,0,,,,,,,,,,,0.000,,,,,,,,,,,,,,,planned,
            20261122-051500-io,"db, ""primary""",queue-pool,utility,mutex,1,1,30.000,0.500000,60.000,1000.000,15666.667,nan,0.0300,1,1,2,ok,30,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0,0,0,0,0.0000,0,,,,,,,,,,,0.000,,,,,,,,,,,,,,,planned,

            """#
        #expect(TrialsCSV.serialize(Self.records) == expected)
    }

    /// A server trial that watched the database behind the server carries both: the server's
    /// cells, then the database's (its backends' samples, CPU and the most of them at once),
    /// read back into one record.
    @Test func aServersDatabaseIsReadBackBesideTheServer() throws {
        var record = Self.records[0]
        record.pool = .server
        record.watched = .server(
            ServerFigures(
                processes: 2, interpreterLock: "cpython 3.11",
                database: DatabaseFigures(
                    backendCPUSeconds: 0.25, waitSamples: [.lock: 30, .timeout: 10, .client: 40], snapshots: 10,
                    peakConnections: 8)))
        let row = TrialsCSV.row(record)
        #expect(row.hasSuffix(",0.000,2,cpython 3.11,,10,,0.250000,30,0,0,40,10,0,0,8,planned,\n"), "\(row)")
        let read = try TrialsCSV.parse(TrialsCSV.header + row, path: "trials.csv")[0].watched
        #expect(read == record.watched)
        #expect(read.database?.workingShare(.lock) == 0.75)
        #expect(read.database?.meanConnections(.client) == 4)
    }

    /// A server trial's processes, the runtime with a lock they run and whether each request had
    /// a connection of its own are three cells, empty for any other trial, read back as written;
    /// a runtime observe does not name so, or one beside no count of processes, is refused
    /// naming the column, and so is a connection cell other than 0 or 1.
    @Test func aServersProcessesAreTwoCellsAndReadBack() throws {
        var record = Self.records[0]
        record.pool = .server
        record.watched = .server(
            ServerFigures(processes: 1, interpreterLock: "cpython 3.11", connectionPerRequest: true))
        let row = TrialsCSV.row(record)
        #expect(row.hasSuffix(",0.000,1,cpython 3.11,1,,,,,,,,,,,,planned,\n"), "\(row)")
        #expect(try TrialsCSV.parse(TrialsCSV.header + row, path: "trials.csv")[0].watched == record.watched)
        let yes = "line 2, column 'server_connection_per_request': 'yes' is not "
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "trials.csv",
                message: yes
                    + "1 (a new connection for each request) or 0 (kept alive) beside a count in server_processes")
        ) {
            try TrialsCSV.parse(
                TrialsCSV.header + row.replacingOccurrences(of: ",cpython 3.11,1,", with: ",cpython 3.11,yes,"),
                path: "trials.csv")
        }
        record.watched = .server(ServerFigures(processes: 4))
        #expect(
            try TrialsCSV.parse(TrialsCSV.header + TrialsCSV.row(record), path: "trials.csv")[0].watched
                == record.watched)
        for (cell, processes) in [("python 3.11", "1"), ("cpython 3.13t", "1"), ("ruby", "")] {
            let damaged =
                TrialsCSV.header + row.replacingOccurrences(of: ",1,cpython 3.11,", with: ",\(processes),\(cell),")
            let message =
                "line 2, column 'server_interpreter_lock': '\(cell)' is not a runtime with an interpreter lock (cpython 3.11, ruby 3.2) beside a count in server_processes"
            #expect(throws: PoolSizeError.invalidInput(path: "trials.csv", message: message)) {
                try TrialsCSV.parse(damaged, path: "trials.csv")
            }
        }
    }

    /// How a window ended and the margin its throughput was known to are the last two cells,
    /// read back as written; a file without them reads as windows of their planned length with
    /// no margin, and an unknown ending is refused naming the column and the three it may be.
    @Test func aWindowsEndAndMarginAreTheLastCellsAndReadBack() throws {
        var record = Self.records[0]
        record.windowEnd = .known
        record.throughputMargin = 0.01873
        let row = TrialsCSV.row(record)
        #expect(row.hasSuffix(",0.000,,,,,,,,,,,,,,,known,0.0187\n"), "\(row)")
        let back = try TrialsCSV.parse(TrialsCSV.header + row, path: "trials.csv")[0]
        #expect(back.windowEnd == .known)
        #expect(back.throughputMargin == 0.0187)
        record.windowEnd = .longest
        record.throughputMargin = nil
        #expect(TrialsCSV.row(record).hasSuffix(",longest,\n"))
        let older =
            TrialsCSV.header.replacingOccurrences(of: ",window_end,throughput_margin", with: "")
            + TrialsCSV.row(Self.records[0]).replacingOccurrences(of: ",planned,\n", with: "\n")
        let read = try TrialsCSV.parse(older, path: "trials.csv")[0]
        #expect(read.windowEnd == .planned && read.throughputMargin == nil)
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "trials.csv",
                message: "line 2, column 'window_end': 'early' is not planned, known or longest")
        ) {
            try TrialsCSV.parse(
                TrialsCSV.header + row.replacingOccurrences(of: ",known,", with: ",early,"), path: "trials.csv")
        }
    }

    /// An adaptive pool's sizes over time: one cell of `seconds:size:throughput` triples, read back
    /// as written; a damaged triple names the column and shows the form expected.
    @Test func adaptiveSizeStepsAreOneCellAndReadBack() throws {
        var record = Self.records[0]
        record.pool = .adaptive
        record.sizeSteps = [
            SizeStep(seconds: 0.104, size: 32, throughputPerSecond: 117.125),
            SizeStep(seconds: 0.2115, size: 29, throughputPerSecond: 1865.25),
        ]
        let row = TrialsCSV.row(record)
        #expect(row.hasSuffix(",0.0125,0,,,,,,,,,,0.104:32:117.1 0.211:29:1865.2,0.000,,,,,,,,,,,,,,,planned,\n"))
        let back = try TrialsCSV.parse(TrialsCSV.header + row, path: "trials.csv")
        #expect(back[0].pool == .adaptive)
        #expect(back[0].sizeSteps.map(\.size) == [32, 29])
        #expect(back[0].sizeSteps.first?.throughputPerSecond == 117.1)
        let damaged = TrialsCSV.header + row.replacingOccurrences(of: "0.104:32:117.1", with: "0.104:0:117.1")
        let message =
            "line 2, column 'size_steps': '0.104:0:117.1' is not seconds:size:throughput_per_s (as 0.104:32:1865.2)"
        #expect(throws: PoolSizeError.invalidInput(path: "trials.csv", message: message)) {
            try TrialsCSV.parse(damaged, path: "trials.csv")
        }
    }

    @Test func openLoopRowsCarryTheirFiguresAndReadBack() throws {
        var record = Self.records[0]
        record.loop = .open(
            OpenLoopFigures(
                arrivalRate: 1000, offeredPerSecond: 1006.25, achievedPerSecond: 2332.5, backlogMean: 25.5,
                backlogMax: 61,
                backlogGrowth: -1.25, stable: true, unfinished: 3, dispatchLagP99Microseconds: 81.5))
        let row = TrialsCSV.row(record)
        #expect(row.hasSuffix(",0,,1000.000,1006.250,25.500,61,-1.250,yes,3,81.5,,0.000,,,,,,,,,,,,,,,planned,\n"))
        let back = try TrialsCSV.parse(TrialsCSV.header + row + TrialsCSV.row(Self.records[1]), path: "trials.csv")
        #expect(back[0].openLoop?.arrivalRate == 1000)
        #expect(back[0].openLoop?.offeredPerSecond == 1006.25)
        #expect(back[0].openLoop?.backlogMax == 61)
        #expect(back[0].openLoop?.stable == true)
        #expect(back[0].openLoop?.unfinished == 3)
        #expect(back[0].openLoop?.achievedPerSecond == 2332.5)
        #expect(back[0].arrivalRate == 1000)
        #expect(back[1].openLoop == nil)
        // A damaged verdict is an error naming the line and column.
        let bad = TrialsCSV.header + row.replacingOccurrences(of: ",yes,", with: ",maybe,")
        #expect(throws: PoolSizeError.self) { try TrialsCSV.parse(bad, path: "trials.csv") }
        do { _ = try TrialsCSV.parse(bad, path: "trials.csv") } catch {
            #expect(error.description == "error: trials.csv: line 2, column 'stable': 'maybe' is not yes or no")
        }
    }

    @Test func headerNamesTheRequiredColumns() {
        for column in [
            "run_id", "workload", "pool", "qos", "primitive", "pool_size", "repetition", "tasks", "wall_s",
            "throughput_per_s", "cpu_us_per_task", "wait_us_per_task", "wait_cpu_ratio", "utilization",
            "peak_concurrency", "threads",
        ] {
            #expect(TrialsCSV.columnNames.contains(column))
        }
        #expect(
            TrialsCSV.row(Self.records[0]).split(separator: ",", omittingEmptySubsequences: false).count
                == TrialsCSV.columns.count)
    }

    @Test func exportManagerAppendsRowsAsTheyFinish() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-export-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let exporter = try ExportManager(directory: dir)
        let path = dir.appendingPathComponent("trials.csv").path
        #expect(try String(contentsOfFile: path, encoding: .utf8) == TrialsCSV.header)
        try exporter.append(Self.records[0])
        // On disk before the next trial starts, not at the end of the run.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == TrialsCSV.header + TrialsCSV.row(Self.records[0]))
        try exporter.append(Self.records[1])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == TrialsCSV.serialize(Self.records))
    }

    @Test func exportManagerRefusesAnUnwritableDirectory() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-file-\(UUID())")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: PoolSizeError.self) { try ExportManager(directory: file.appendingPathComponent("run")) }
        do { _ = try ExportManager(directory: file.appendingPathComponent("run")) } catch {
            #expect(
                error.description
                    == "error: cannot write \(file.path)/run: \(file.path) is a file, not a directory; choose a writable location (`runDirectory` for the run directory, `plotsDirectory` for the charts)"
            )
            #expect(error.exitCode == 73)
        }
    }

    @Test func recommendationJSONHasTheDocumentedKeys() throws {
        let r = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: 14.5, waitCPURatioUpper: 15.5,
            specWaitCPURatio: 15,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, targetUtilization: 1,
            formulaQueueCountExact: 32,
            formulaQueueCountStandardError: 0.5, formulaQueueCount: 32, recommendedQueueCount: 32,
            sizing: .knee(
                .init(
                    kneeQueueCount: 32, kneeThroughputPerSecond: 1950, peakQueueCount: 36,
                    peakThroughputPerSecond: 1990, tolerance: 0.05)),
            reason: "agree")
        let json = try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(r).utf8)) as! [String: Any]
        for key in [
            "workload", "cores", "wait_cpu_ratio", "target_utilization", "formula_queue_count", "knee_pool_size",
            "peak_throughput_per_s", "recommended_queue_count",
        ] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["recommended_queue_count"] as? Int == 32)
        #expect(json["basis"] as? String == "knee")
    }
}
