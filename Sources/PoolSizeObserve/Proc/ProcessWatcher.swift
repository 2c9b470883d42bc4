import Foundation
import PoolSizeProcess

/// Reads every thread of one process at each sweep: the task directory for the threads alive
/// now, then each thread's kept-open stat and schedstat, and its syscall (with the descriptor
/// it waits on) when it is not running. Not thread-safe: one sampler owns it.
final class ProcessWatcher {
    let pid: Int32
    let architecture: SyscallArchitecture
    private var threads: [Int32: ThreadFiles] = [:]
    private let descriptors: DescriptorCache
    private let taskDirectory: Platform.DirectoryStream?
    /// The process's own stat (its CPU, ended threads included), kept open as the threads' are.
    private let processStat: ProcFile
    /// A syscall read was refused (EACCES).
    private(set) var syscallDenied = false
    /// The kernel has no schedstat files.
    private(set) var schedstatMissing = false
    /// Thread reads so far.
    private(set) var threadReads = 0

    init(pid: Int32, architecture: SyscallArchitecture, sockets: SocketTables) {
        self.pid = pid
        self.architecture = architecture
        descriptors = DescriptorCache(pid: pid, sockets: sockets)
        taskDirectory = opendir("/proc/\(pid)/task")
        processStat = ProcFile(path: "/proc/\(pid)/stat")
    }

    /// The process's stat now; nil once it is gone.
    func stat() -> String? {
        guard case let .success(text) = processStat.read(), !text.isEmpty else { return nil }
        return text
    }

    deinit {
        if let taskDirectory { closedir(taskDirectory) }
        for files in threads.values { files.release() }
        processStat.release()
    }

    /// The threads alive now; empty once the process is gone.
    func threadIDs() -> [Int32] {
        guard let taskDirectory else { return [] }
        rewinddir(taskDirectory)
        var result: [Int32] = []
        while let entry = readdir(taskDirectory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let tid = Int32(name) { result.append(tid) }
        }
        return result
    }

    /// One read of every thread; `withStatus` adds each thread's status (first and last sweep).
    func sweep(now: Double, withStatus: Bool) -> [RawThreadTexts] {
        let alive = threadIDs()
        let aliveSet = Set(alive)
        for (tid, files) in threads where !aliveSet.contains(tid) {
            files.release()
            threads[tid] = nil
        }
        var result: [RawThreadTexts] = []
        result.reserveCapacity(alive.count)
        for tid in alive {
            let isNew = threads[tid] == nil
            let files = threads[tid] ?? ThreadFiles(pid: pid, tid: tid)
            threads[tid] = files
            guard case let .success(stat) = files.stat.read(), !stat.isEmpty else {
                files.release()
                threads[tid] = nil
                continue
            }
            threadReads += 1
            var texts = RawThreadTexts(pid: pid, tid: tid, stat: stat, schedstat: nil)
            switch files.schedstat.read() {
            case let .success(text): texts.schedstat = text
            case let .failure(error): if error.errno == ENOENT { schedstatMissing = true }
            }
            let state = ProcText.state(of: stat)
            if state == "R" {
                files.blocked = nil
            } else if let state, let last = files.blocked, last.state == state, let schedstat = texts.schedstat,
                last.schedstat == schedstat, last.texts.waitSet == nil, last.texts.syscallErrno == nil
            {
                // schedstat counts every time the thread was put on a CPU: unchanged, it never ran
                // since the last sweep and blocks in the same call. A multiplexed wait's set can
                // change under it (another thread adds a descriptor), so that one is read again.
                texts.syscall = last.texts.syscall
                texts.descriptor = last.texts.descriptor
                texts.socket = last.texts.socket
            } else {
                readSyscall(files, into: &texts, now: now)
                files.blocked = state.flatMap { state in texts.schedstat.map { (state, $0, texts) } }
            }
            // Status is long: read when a thread is first seen and at the first and last sweep.
            if withStatus || isNew, case let .success(status) = ProcFile.readOnce(files.statusPath) {
                texts.status = status
            }
            result.append(texts)
        }
        return result
    }

    private func readSyscall(_ files: ThreadFiles, into texts: inout RawThreadTexts, now: Double) {
        switch files.syscall.read() {
        case let .failure(error):
            if error.isGone { return }
            texts.syscallErrno = error.errno
            if error.errno == EACCES || error.errno == EPERM { syscallDenied = true }
        case let .success(text):
            texts.syscall = text
            guard case let .inSyscall(number, arguments)? = SyscallReading(text: text),
                let call = BlockingSyscall(number: number, architecture: architecture)
            else { return }
            if call.isMultiplexed, let set = descriptors.waitSet(call, arguments: arguments, now: now) {
                texts.waitSet = set.members
                if set.size > set.members.count { texts.waitSetSize = set.size }
            }
            guard call.waitsOnDescriptorArgument, let link = descriptors.link(arguments[0], now: now) else { return }
            texts.descriptor = link
            if case let .socket(inode)? = DescriptorKind(link: link) {
                texts.socket = descriptors.socket(inode, now: now)
            }
        }
    }

    /// What is read of the process once: its parent, title, executable and shared objects.
    func processTexts() -> RawProcessTexts { RawProcessTexts.read(pid: pid) }

    /// `/proc/PID/cmdline` now (a server may rewrite it as its state changes) without the NUL
    /// bytes a rewritten title leaves after itself; empty when gone.
    func title() -> String { RawProcessTexts.cmdline(pid: pid) }

    /// The process's children, from every thread's `children` file (CONFIG_PROC_CHILDREN).
    func children() -> [Int32] {
        threadIDs().flatMap { tid -> [Int32] in
            guard case let .success(text) = ProcFile.readOnce("/proc/\(pid)/task/\(tid)/children") else { return [] }
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}
