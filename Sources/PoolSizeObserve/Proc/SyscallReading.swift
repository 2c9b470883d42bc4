import PoolSizeProcess

/// What `/proc/PID/task/TID/syscall` said at one instant (proc_pid_syscall(5)): the call a
/// blocked thread is in with its arguments, `-1` for a thread blocked outside a call (a page
/// fault), `running`, or nothing because the file was unreadable.
package enum SyscallReading: Equatable, Sendable {
    /// The thread was on a CPU (or about to be).
    case running
    /// Blocked, but not in a system call.
    case notInSyscall
    /// Blocked in call `number`, with its six arguments.
    case inSyscall(number: Int, arguments: [UInt64])
    /// The file could not be read; `errno` says why (EACCES: not dumpable, Yama, another user).
    case unreadable(errno: Int32)

    /// Parses the file's text: `running`, `-1 SP PC`, or `NR A0 … A5 SP PC` in hex
    /// (`0x…`) after the decimal number. nil for text of another shape.
    package init?(text: some StringProtocol) {
        let parsed = ByteScanner.scan(text) { bytes -> SyscallReading? in
            var scanner = ByteScanner(bytes)
            scanner.skipSpaces()
            if scanner.startsWith("running") { return .running }
            if scanner.startsWith("-1") { return .notInSyscall }
            guard let number = scanner.decimal() else { return nil }
            var arguments: [UInt64] = []
            arguments.reserveCapacity(6)
            for _ in 0..<6 {
                guard let argument = scanner.hexadecimal() else { return nil }
                arguments.append(argument)
            }
            return .inSyscall(number: Int(number), arguments: arguments)
        }
        guard let parsed else { return nil }
        self = parsed
    }
}
