import PoolSizeModel

/// Something a workload source watches outside the pool while a trial's window is open (the
/// database behind its connections): told when the window opens, asked at its close for what
/// it saw, which the trial's record carries (`TrialRecord.Watched`). The trial loops call it at
/// the same instants they read their own figures, so both cover one window.
package protocol TrialWindowWatch: Sendable {
    /// The window opens: start counting.
    func windowOpened()
    /// The window closes: stop, and say what was seen since `windowOpened()`. Called once per
    /// trial, and once more (its answer dropped) if the trial ended without closing it, so it
    /// must also stop what an open window started when none is open.
    func windowClosed() -> TrialRecord.Watched
}

/// A window watch kept for a whole sweep (a database's monitoring connection): closed once the
/// sweep ends, after which its windows see nothing.
package protocol SweepWindowWatch: TrialWindowWatch {
    /// The sweep is over: stop sampling and let go of what the watch holds.
    func close()
}
