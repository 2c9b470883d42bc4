@testable import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// Why a `--postgres` curve bends, from fixed figures: the class most of the backends' samples
/// fall in at the first size past the knee, the knee's own when nothing past it was measured.
struct DatabaseBendTests {
    static func size(
        _ size: Int, _ samples: [WaitClass: Int], cpuSeconds: Double? = nil, transactions: Double = 1_000,
        window: Double = 0.5
    ) -> DatabaseAtSize {
        DatabaseAtSize(
            size: size, figures: DatabaseFigures(backendCPUSeconds: cpuSeconds, waitSamples: samples, snapshots: 30),
            transactions: transactions, windowSeconds: window)
    }

    /// The knee at 1 of a row everyone updates: at 1 the backend sleeps in its transaction, past
    /// it the others wait for its lock; the answer is the first size past the knee's.
    @Test func lockWaitsPastTheKneeNameTheCause() {
        let sizes = [
            Self.size(1, [.timeout: 27, .client: 3]),
            Self.size(4, [.lock: 71, .timeout: 25, .client: 4]),
            Self.size(16, [.lock: 90, .timeout: 6, .client: 4]),
        ]
        let bend = DatabaseBend.find(sizes, knee: 1)
        #expect(bend == DatabaseBend(dominant: .lock, share: 0.71, size: 4, pastKnee: true))
    }

    /// A curve still rising at the largest size: the knee's own figures, marked as not past it.
    @Test func aRisingCurveIsExplainedFromItsKnee() {
        let sizes = [Self.size(1, [.timeout: 30]), Self.size(16, [.timeout: 470, .cpu: 10])]
        let bend = DatabaseBend.find(sizes, knee: 16)
        #expect(bend?.dominant == .timeout)
        #expect(bend?.size == 16)
        #expect(bend?.pastKnee == false)
    }

    /// CPU dominant: the backends' CPU over the window comes with it, in cores.
    @Test func theServersCPUCarriesTheCoresItUsed() {
        let sizes = [
            Self.size(2, [.cpu: 50, .client: 10]), Self.size(8, [.cpu: 80, .lwlock: 15, .client: 5], cpuSeconds: 0.9),
        ]
        let bend = DatabaseBend.find(sizes, knee: 2)
        #expect(bend == DatabaseBend(dominant: .cpu, share: 0.8, size: 8, backendCores: 1.8, machineBusy: 0))
    }

    /// A local server on busy cores: backends that wait for the client, or run, are waiting for
    /// the cores the pool shares with them; a remote server's (no CPU read) never is.
    @Test func busyCoresOfALocalServerAreSharedCPU() {
        var local = Self.size(64, [.client: 97, .cpu: 3], cpuSeconds: 0.5)
        local.machineBusy = 0.95
        let bend = DatabaseBend.find([Self.size(8, [.client: 90, .cpu: 10]), local], knee: 8)
        #expect(bend?.dominant == .client)
        #expect(bend?.machineBusy == 0.95)
        #expect(bend?.sharedCPU == true)
        var idle = local
        idle.machineBusy = 0.4
        #expect(DatabaseBend.find([idle], knee: 64)?.sharedCPU == false)
        var remote = Self.size(64, [.client: 97, .cpu: 3])
        remote.machineBusy = 0.95
        #expect(DatabaseBend.find([remote], knee: 64)?.machineBusy == nil)
        #expect(DatabaseBend.find([remote], knee: 64)?.sharedCPU == false)
        var locked = local
        locked.figures.waitSamples = [.lock: 90, .client: 10]
        #expect(DatabaseBend.find([locked], knee: 64)?.sharedCPU == false)
    }

    /// Too few samples past the knee and at it: no cause rather than one from noise.
    /// A client that takes little of the cores (a thread per core driving the connections):
    /// 27% utilization and 1% other load, but its backends used 3.44 s of CPU in a 2.4 s window
    /// on 2 cores (72%), so the machine was 100% busy and the bend is the CPU the pool and the
    /// server share, not the client's side.
    @Test func theBackendsCPUCountsAmongTheBusyCores() {
        var r = TrialRecord(
            runID: "r", workload: "w", pool: .threadPool, qos: .default, primitive: .none, poolSize: 64,
            repetition: 1, tasks: 81_000, wallSeconds: 2.4, throughputPerSecond: 33_750, cpuMicrosecondsPerTask: 9.6,
            waitMicrosecondsPerTask: 1_800, waitCPURatio: 190, utilization: 0.27, peakConcurrency: 64, threads: 2,
            effectiveNice: 0, integrity: .notApplicable, errors: 0)
        r.otherLoad = 0.01
        r.watched = .database(DatabaseFigures(backendCPUSeconds: 3.44, waitSamples: [.client: 95, .cpu: 5]))
        let bend = DatabaseBend.find(DatabaseAtSize.pooled([r], cores: 2), knee: 8)
        #expect(abs((bend?.machineBusy ?? 0) - (0.28 + 3.44 / 4.8)) < 1e-9)
        #expect(bend?.sharedCPU == true)
    }

    @Test func fewSamplesGiveNoCause() {
        let sizes = [Self.size(1, [.lock: 5]), Self.size(4, [.lock: 19])]
        #expect(DatabaseBend.find(sizes, knee: 1) == nil)
        #expect(DatabaseBend.find([], knee: 1) == nil)
    }

    /// Repetitions pool by size: errors and samples add up, CPU per transaction over all of them;
    /// a trial without database figures is left out.
    @Test func repetitionsPoolBySize() {
        func record(_ size: Int, _ figures: DatabaseFigures?) -> TrialRecord {
            var r = TrialRecord(
                runID: "r", workload: "w", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1, tasks: 900, wallSeconds: 0.5, throughputPerSecond: 1_800, cpuMicrosecondsPerTask: 50,
                waitMicrosecondsPerTask: 500, waitCPURatio: 10, utilization: 0.1, peakConcurrency: size,
                threads: size, effectiveNice: 0, integrity: .notApplicable, errors: 100)
            r.watched = figures.map(TrialRecord.Watched.database) ?? .nothing
            return r
        }
        let pooled = DatabaseAtSize.pooled(
            [
                record(
                    4,
                    DatabaseFigures(errorsBySQLState: ["40001": 60], backendCPUSeconds: 0.1, waitSamples: [.lock: 10])),
                record(
                    4,
                    DatabaseFigures(
                        errorsBySQLState: ["40001": 40, "40P01": 2], backendCPUSeconds: 0.2,
                        waitSamples: [.lock: 5, .cpu: 5])),
                record(8, nil),
            ], cores: 2)
        #expect(pooled.map(\.size) == [4])
        #expect(pooled[0].figures.errorsBySQLState == ["40001": 100, "40P01": 2])
        #expect(pooled[0].figures.waitSamples == [.lock: 15, .cpu: 5])
        #expect(pooled[0].figures.errorsText == "40001:100 40P01:2")
        #expect(abs((pooled[0].backendCPUMicrosecondsPerTransaction ?? 0) - 150) < 1e-9)
        #expect(abs((pooled[0].backendCores ?? 0) - 0.3) < 1e-9)
        // Each record: utilization 0.1, no other load, and its backends' CPU over its 0.5 s
        // window on 2 cores (0.1 s: 0.1, 0.2 s: 0.2); the mean over the repetitions, 0.25.
        #expect(abs(pooled[0].machineBusy - 0.25) < 1e-9)
        // Without the cores the backends' share is unknown and left out.
        let unknown = DatabaseAtSize.pooled(
            [record(4, DatabaseFigures(backendCPUSeconds: 0.1, waitSamples: [.cpu: 5]))], cores: nil)
        #expect(abs(unknown[0].machineBusy - 0.1) < 1e-9)
    }
}
