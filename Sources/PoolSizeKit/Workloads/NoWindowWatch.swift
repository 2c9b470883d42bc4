import PoolSizeModel

/// The watch of a source that watches nothing outside the pool: every trial records `.nothing`.
package struct NoWindowWatch: TrialWindowWatch {
    /// A watch that sees nothing.
    package init() {}
    /// Nothing to start.
    package func windowOpened() {}
    /// Nothing seen.
    package func windowClosed() -> TrialRecord.Watched { .nothing }
}
