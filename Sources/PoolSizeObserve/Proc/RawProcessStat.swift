/// `/proc/PID/stat` of one watched process, read at one sweep: its utime and stime count every
/// thread the process ever had, those that ended included, so the CPU of threads that started
/// and ended between two sweeps (never read on their own) shows in it.
package struct RawProcessStat: Equatable, Sendable, Codable {
    /// The process.
    package var pid: Int32
    /// The text as read.
    package var stat: String
}
