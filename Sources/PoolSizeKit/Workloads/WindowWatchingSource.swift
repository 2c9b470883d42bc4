/// A workload source that watches something outside the pool during each trial's window
/// (`TrialWindowWatch`). Apart from `WorkloadSource` so the public protocol names no package
/// type; the measurer asks any source for it and gives the others `NoWindowWatch`.
package protocol WindowWatchingSource: WorkloadSource {
    /// The watch of the next trial; trials run one at a time.
    func windowWatch() -> any TrialWindowWatch
}
