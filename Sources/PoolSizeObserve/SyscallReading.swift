/// What `/proc/PID/task/TID/syscall` said at one instant (proc_pid_syscall(5)): the call a
/// blocked thread is in with its arguments, `-1` for a thread blocked outside a call (a page
/// fault), `running`, or nothing because the file was unreadable.
public enum SyscallReading: Equatable, Sendable {
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
    public init?(text: some StringProtocol) {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = fields.first else { return nil }
        if first == "running" {
            self = .running
            return
        }
        guard let number = Int(first) else { return nil }
        if number < 0 {
            self = .notInSyscall
            return
        }
        let arguments = fields.dropFirst().prefix(6).compactMap { field -> UInt64? in
            let digits = field.hasPrefix("0x") ? field.dropFirst(2) : field[...]
            return UInt64(digits, radix: 16)
        }
        guard arguments.count == 6 else { return nil }
        self = .inSyscall(number: number, arguments: arguments)
    }
}
