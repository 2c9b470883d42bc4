import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// A workload that only counts: trial mechanics without timing.
final class CountingWorkload: Workload {
    let runs = Atomic<Int>(0)
    let seen = Mutex<Set<UInt64>>([])
    func run(task index: UInt64) {
        runs.wrappingAdd(1, ordering: .relaxed)
        seen.withLock { _ = $0.insert(index) }
        SleepWaiter().wait(microseconds: 200)
    }
}

/// Meets the others at a rendezvous, then sleeps 200 µs.
struct RendezvousWorkload: Workload {
    let rendezvous: Rendezvous
    init(_ rendezvous: Rendezvous) { self.rendezvous = rendezvous }
    func run(task index: UInt64) {
        rendezvous.arrive()
        SleepWaiter().wait(microseconds: 200)
    }
}

@Suite struct TrialRunnerTests {
    @Test func maxTasksBoundsATrialAndEveryTaskIsRecordedOnce() throws {
        let workload = CountingWorkload()
        let pool = QueuePool(size: 3)
        let settings = TrialSettings(durationNanoseconds: 30_000_000_000, maxTasks: 50)
        let m = try TrialRunner().run(pool: pool, workload: workload, settings: settings)
        pool.shutdown()
        #expect(m.samples.count == 50)
        #expect(workload.runs.load(ordering: .relaxed) == 50)
        #expect(workload.seen.withLock { $0 } == Set(0..<50))
        #expect(m.peakConcurrency <= 3)
        #expect(m.samples.allSatisfy { $0.submitted <= $0.started && $0.started <= $0.ended })
    }

    /// A launch that outlasts the planned warm-up (here a 100 ms stagger in a 50 ms trial, as
    /// thousands of threads take to start) still gets its full planned window of 40 ms, not
    /// the sliver that was left of the trial's length.
    @Test func slowLaunchKeepsTheFullWindow() throws {
        let pool = QueuePool(size: 4)
        var settings = TrialSettings(durationNanoseconds: 50_000_000, warmupFraction: 0.2, depthPerSlot: 1)
        settings.staggerNanoseconds = 100_000_000
        let m = try TrialRunner().run(pool: pool, workload: CountingWorkload(), settings: settings)
        pool.shutdown()
        #expect(m.windowEnd - m.windowStart >= 40_000_000)
        #expect(m.samples.count > 10)
    }

    /// The trial sees exactly the concurrency the pool allows: the first N tasks wait for one
    /// another, so N run at once, and no more ever do.
    @Test func peakConcurrencyIsThePoolSize() throws {
        for size in [1, 4] {
            let pool = QueuePool(size: size)
            let workload = RendezvousWorkload(Rendezvous(count: size))
            let m = try TrialRunner().run(
                pool: pool, workload: workload, settings: TrialSettings(durationNanoseconds: 50_000_000))
            pool.shutdown()
            #expect(m.peakConcurrency == size)
            #expect(m.windowEnd > m.windowStart)
        }
    }

    @Test func staggeredSettingsCoverTheWarmup() {
        // 16 ms tasks, depth 2: the start is spread over 32 ms, warm-up is 48 ms (20% of 600 ms covers it).
        let s = TrialSettings.forTasks(ofNanoseconds: 16_000_000, durationNanoseconds: 600_000_000)
        #expect(s.staggerNanoseconds == 32_000_000)
        #expect(s.durationNanoseconds == 600_000_000)
        #expect(s.warmupFraction == 0.2)
        // 200 ms tasks need 3 periods of warm-up and 5× that in all.
        let slow = TrialSettings.forTasks(ofNanoseconds: 200_000_000, durationNanoseconds: 600_000_000)
        #expect(slow.durationNanoseconds == 3_000_000_000)
        #expect(slow.warmupFraction == 0.2)
    }
}

@Suite struct CgroupQuotaTests {
    @Test func parsesV2() {
        #expect(CgroupQuota.parseV2("max 100000\n") == nil)
        #expect(CgroupQuota.parseV2("200000 100000\n") == 2)
        #expect(CgroupQuota.parseV2("150000 100000") == 2)
        #expect(CgroupQuota.parseV2("50000 100000") == 1)
        #expect(CgroupQuota.parseV2("garbage") == nil)
    }

    @Test func parsesV1() {
        #expect(CgroupQuota.parseV1(quota: "-1\n", period: "100000\n") == nil)
        #expect(CgroupQuota.parseV1(quota: "350000", period: "100000") == 4)
    }

    @Test func findsPathsInProcCgroup() {
        let v2 = CgroupQuota.paths(fromProcCgroup: "0::/user.slice/session-1.scope\n")
        #expect(v2.v2 == "/user.slice/session-1.scope")
        #expect(v2.v1CPU == nil)
        let v1 = CgroupQuota.paths(fromProcCgroup: "4:memory:/m\n3:cpu,cpuacct:/docker/abc\n0::/\n")
        #expect(v1.v1CPU == "/docker/abc")
        #expect(v1.v2 == "/")
    }

    @Test func effectiveCoresIsTheSmallestLimit() {
        #expect(CoreCount(online: 8, affinity: 4, cgroupQuota: 2).effective == 2)
        #expect(CoreCount(online: 8, affinity: 4, cgroupQuota: nil).effective == 4)
        #expect(CoreCount(online: 8, affinity: 4, cgroupQuota: 6).effective == 4)
        #expect(CoreCount(online: 8, affinity: 4, cgroupQuota: 2, override: 16).effective == 16)
    }
}
