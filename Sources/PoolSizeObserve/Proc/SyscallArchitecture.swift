/// The system-call numbering of the observed process: `/proc/PID/task/TID/syscall` prints the
/// number, and the numbers differ between architectures (x86_64's own table; aarch64 uses the
/// generic one in asm-generic/unistd.h).
package enum SyscallArchitecture: String, CaseIterable, Sendable, Codable {
    /// x86_64 (arch/x86/entry/syscalls/syscall_64.tbl); the kernel's name for it, as `uname -m` prints it.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case x86_64
    /// aarch64 (include/uapi/asm-generic/unistd.h).
    case aarch64

    /// The architecture this program was built for, which is the observed process's on the
    /// same kernel (32-bit compat processes on x86_64 would number differently and are not
    /// supported); nil elsewhere.
    package static var current: SyscallArchitecture? {
        #if arch(x86_64)
            return .x86_64
        #elseif arch(arm64)
            return .aarch64
        #else
            return nil
        #endif
    }
}
