import Foundation

/// The write end of the pipe the signal handler writes to; set before the handler is installed.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Ctrl-C and SIGTERM, turned into a call on a thread of our own (the self-pipe pattern). The
/// handler is installed with sigaction before `init` returns, so no signal that arrives after
/// it can be lost or take its default action; the handler only writes one byte
/// (async-signal-safe), whatever thread the kernel picks to run it. Dispatch signal sources were
/// not enough: they register asynchronously, and a signal in that window either killed the
/// process or, once SIG_IGN was set, was dropped. A caught signal reverts to its default in a
/// spawned command (execve resets handlers), so `--exec` children still get Ctrl-C.
/// Create it on the main thread: that is the thread it unblocks the signals on.
final class SignalWatch: @unchecked Sendable {
    static let signals = [SIGINT, SIGTERM]
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Calls `handler` with each signal's number, one at a time, on a dedicated thread.
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [-1, -1]
        _ = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
        readEnd = fds[0]
        writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        signalPipeWrite = writeEnd
        // Every signal, until `cancel`: a command that carries on after the first (observe's
        // Ctrl-C ends the sampling, a second one its charts) must hear the next one too.
        let thread = Thread { [readEnd] in
            while true {
                var byte: UInt8 = 0
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1, byte != 0 else { return }
                handler(Int32(byte))
            }
        }
        thread.name = "poolsize.signals"
        thread.start()
        for number in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWrite, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        // A parent may start us with these signals blocked (test runners and some process
        // supervisors do); blocked, they would wait forever. Unblocked on this thread (the
        // main one, in every command), which the kernel can then always deliver them to.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Restores the default actions and ends the watching thread.
    func cancel() {
        for number in Self.signals { signal(number, SIG_DFL) }
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
    }
}
