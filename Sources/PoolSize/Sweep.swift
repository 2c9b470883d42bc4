import Foundation

/// A sweep as a library call: sizes, repetitions and a pool kind in; the trials, the low-load
/// W/C and the recommendation out, the same results `poolsize sweep` writes to a run directory
/// (the command is a user of this type).
///
/// ```swift
/// let result = try Sweep(.init(name: "thumbnail", sizes: .explicit([1, 2, 4, 8, 16]))) {
///     renderThumbnail()          // your task: CPU, blocking IO, a call to a service
/// }.run()
/// print(try result.queueCount)   // throws, saying why, when no size could be recommended
/// ```
public struct Sweep: Sendable {
    /// What to measure: sizes, axes, repetitions, trial length, seed. The command's flags
    /// reach axes and settings that `Configuration` leaves out, so the full plan stays package-wide.
    package var plan: SweepPlan
    /// Where the tasks come from.
    public var source: any WorkloadSource
    /// Builds each trial's pool; `SystemPoolFactory` unless you inject your own.
    public var pools: any PoolFactory
    /// Drives each closed-loop trial (its clocks can be injected by tests).
    package var runner: TrialRunner
    /// A target's workload (`init(_:target:)`), which runs in place of `source` on `pools`.
    package var workload: RecordedSweep.Workload?
    /// A chain's sweep (`Sweep.Target.chain`), which runs in place of the rest.
    package var chain: ChainPlan?

    /// Any workload source on pools from `pools`: your own `WorkloadSource` (and, with a
    /// `PoolFactory` of your own, your own `WorkerPool`) swept as `configuration` says.
    public init(
        _ configuration: Configuration, source: any WorkloadSource, pools: any PoolFactory = SystemPoolFactory()
    ) {
        self.init(plan: configuration.plan(description: "a Swift workload source"), source: source, pools: pools)
    }

    /// Sweeps a closure as `configuration` says: each task calls `body` once. Its thread CPU
    /// time is C and the rest of its wall time W, measured, so the closure may compute, block
    /// or call out as it likes.
    public init(_ configuration: Configuration, body: @escaping @Sendable () -> Void) {
        self.init(
            plan: configuration.plan(description: "a Swift closure, its W and C measured"),
            source: ClosureSource { _ in body() })
    }

    /// Any workload source under a full plan (the command's sweep, which records to a run directory).
    package init(
        plan: SweepPlan, source: any WorkloadSource, pools: any PoolFactory = SystemPoolFactory(),
        runner: TrialRunner = TrialRunner()
    ) {
        self.plan = plan
        self.source = source
        // An adaptive pool's formula sizes for the plan's cores (`--cores`), as the sweep's does.
        if var system = pools as? SystemPoolFactory, system.cores == nil {
            system.cores = plan.cores
            self.pools = system
        } else {
            self.pools = pools
        }
        self.runner = runner
    }

    /// Runs the sweep on the calling thread, which it blocks until the last trial.
    /// - Parameter observer: told of every trial as it finishes (to write it out, or show
    ///   progress). Without one, a progress line on standard error when it is a terminal (the
    ///   trial under way, cleared at the end), nothing where it is a file or a pipe.
    public func run(observer: (any SweepObserver)? = nil) throws(PoolSizeError) -> SweepResult {
        guard observer == nil, let progress = TerminalProgress.forStandardError() else {
            return try run(observer: observer, resume: nil, spelling: .settings)
        }
        defer { progress.finish() }
        return try run(observer: progress, resume: nil, spelling: .settings)
    }

    /// Runs the sweep, or the rest of it.
    /// - Parameters:
    ///   - resume: the low-load estimate and finished trials of an interrupted run of this plan;
    ///     only the missing trials run.
    ///   - spelling: how the recommendation's advice names a setting: the library's name for a
    ///     Swift caller, the flag for the command's run directory.
    package func run(
        observer: (any SweepObserver)?, resume: (lowLoad: LowLoadEstimate, records: [TrialRecord])?,
        spelling: SettingSpelling
    ) throws(PoolSizeError) -> SweepResult {
        if let chain { return try chain.run(observer: observer) }
        if let workload {
            let started = try StartedWorkload(workload, plan: plan, burner: CPUBurner())
            defer { started.end() }
            return try Self.run(
                plan, on: started.runner, declaresWaitCPU: started.declaresWaitCPU(plan), observer: observer,
                resume: resume, spelling: spelling)
        }
        if let outside = plan.pools.first(where: { !PoolKind.inProcess.contains($0) }) {
            throw .invalidParameter(
                .pools,
                message:
                    "'\(outside.rawValue)' is not a pool poolsize builds (\(outside.summary)), which a Swift workload source cannot run; choose a pool built in this process"
            )
        }
        // A Swift workload source has no load tool to pace its arrivals.
        try plan.load.checkPacing(byTool: false)
        // A spec that declares no C (a source's placeholder spec) has no W/C to compare with.
        return try Self.run(
            plan, on: SweepRunner(source: source, runner: runner, pools: pools),
            declaresWaitCPU: source.declaredTaskNanoseconds != nil && plan.spec.cpuMicroseconds > 0,
            observer: observer, resume: resume, spelling: spelling)
    }

    /// Runs `plan` on `sweepRunner` (pools in this process, or a server the measurer starts) and
    /// recommends from its trials: the one way a sweep's trials become its result.
    /// - Parameter declaresWaitCPU: whether the plan's spec declares the W/C its tasks should have.
    package static func run(
        _ plan: SweepPlan, on sweepRunner: SweepRunner, declaresWaitCPU declared: Bool,
        observer: (any SweepObserver)?, resume: (lowLoad: LowLoadEstimate, records: [TrialRecord])?,
        spelling: SettingSpelling
    ) throws(PoolSizeError) -> SweepResult {
        try plan.checkTrialMargin()
        let (lowLoad, records) = try sweepRunner.run(plan, observer: observer ?? SilentObserver(), resume: resume)
        let recommendation = Recommender.recommendAll(
            workload: plan.spec.name, records: records, lowLoad: lowLoad, cores: plan.cores,
            targetUtilization: plan.targetUtilization, tolerance: plan.tolerance,
            specWaitCPURatio: declared ? plan.spec.waitCPURatio : nil, load: plan.load,
            sizeLimit: plan.target.sizeLimit)
        return SweepResult(
            plan: plan, lowLoad: lowLoad, records: records,
            recommendation: recommendation.map { SizingProse.worded($0, spelling: spelling) })
    }

    /// Runs the sweep on a thread of its own, so the awaiting task does not hold a thread of
    /// Swift's cooperative pool for the minutes a sweep can take.
    public func run(observer: (any SweepObserver & Sendable)? = nil) async throws(PoolSizeError) -> SweepResult {
        let outcome: Result<SweepResult, PoolSizeError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(PoolSizeError) in try self.run(observer: observer) })
            }
        }
        return try outcome.get()
    }
}

/// An observer that ignores every event.
final class SilentObserver: SweepObserver {
    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {}
    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {}
}
