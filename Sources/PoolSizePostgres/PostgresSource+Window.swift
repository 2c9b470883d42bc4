import PoolSizeKit

extension PostgresSource: WindowWatchingSource {
    /// The database behind the connections: errors by SQLSTATE, the backends' CPU and their
    /// wait events over each trial's window.
    package func windowWatch() -> any TrialWindowWatch { watch }
}
