/// The kept-open /proc files of one thread of the target.
final class ThreadFiles {
    let pid: Int32
    let tid: Int32
    let stat: ProcFile
    let schedstat: ProcFile
    let syscall: ProcFile
    /// Read twice per thread (first and last sweep): opened each time.
    let statusPath: String
    /// The last sweep's read of this thread while it was blocked, with its stat state and
    /// schedstat: while both are unchanged the thread has not run since, so it is still in the
    /// same call and its syscall need not be read again.
    var blocked: (state: Character, schedstat: String, texts: RawThreadTexts)?

    init(pid: Int32, tid: Int32) {
        self.pid = pid
        self.tid = tid
        let base = "/proc/\(pid)/task/\(tid)/"
        stat = ProcFile(path: base + "stat")
        schedstat = ProcFile(path: base + "schedstat")
        syscall = ProcFile(path: base + "syscall")
        statusPath = base + "status"
    }

    func release() {
        stat.release()
        schedstat.release()
        syscall.release()
    }
}
