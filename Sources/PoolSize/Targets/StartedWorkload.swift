import Foundation
import PoolSizeKit
import PoolSizeModel

/// A sweep's workload once started: the source its pools run (nil when the pool is outside
/// this process), what measures each trial, and what the sweep holds until it ends.
package struct StartedWorkload {
    /// The tasks poolsize's own pools run; nil for a server, a load tool or a database's measurer.
    package var source: (any WorkloadSource)?
    /// What runs and measures each trial.
    package var measurer: any TrialMeasuring
    /// A file-IO workload's scratch files, removed at the end.
    private var files: FileScratch?

    /// `workload` made ready for `plan`: a spec's, a trace's or a source's tasks on pools built
    /// here (an adaptive pool's formula sizing for the plan's cores), or the external measurer.
    package init(_ workload: RecordedSweep.Workload, plan: SweepPlan, burner: CPUBurner) throws(PoolSizeError) {
        func onPools(_ source: any WorkloadSource) -> any TrialMeasuring {
            PoolTrialMeasurer(pools: SystemPoolFactory(cores: plan.cores), source: source)
        }
        switch workload {
        case let .spec(scratch):
            // A file-IO workload's scratch files live for the sweep and are removed after it.
            files = plan.spec.doesFileIO ? try FileScratch(directory: scratch) : nil
            source = SyntheticSource(spec: plan.spec, burner: burner, scratch: files)
        case let .trace(trace):
            source = TraceSource(trace: trace, burner: burner)
        case let .source(custom):
            source = custom
        case let .external(external):
            source = nil
            measurer = external
            return
        }
        measurer = onPools(source!)
    }

    /// Whether the plan's spec declares the W/C its tasks should have: a spec that declares no C
    /// (a source's placeholder spec) has none to compare with.
    package func declaresWaitCPU(_ plan: SweepPlan) -> Bool {
        source?.declaredTaskNanoseconds != nil && plan.spec.cpuMicroseconds > 0
    }

    /// What runs the trials of `plan`.
    package var runner: SweepRunner {
        SweepRunner(measurer: measurer, declaredTaskNanoseconds: source?.declaredTaskNanoseconds)
    }

    /// Ends what the sweep held: the source's connections and leftover processes, the scratch files.
    package func end() {
        source?.sweepEnded()
        files?.remove()
    }
}
