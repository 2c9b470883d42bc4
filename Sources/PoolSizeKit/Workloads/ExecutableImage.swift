import Foundation

/// What kind of program a file is, read from its first bytes: whether the dynamic loader can
/// start it without running it (`CommandSource.measureProcessStart`). Only a dynamically linked
/// ELF file (one with a PT_INTERP program header, elf(5)) stops in the loader when
/// `LD_TRACE_LOADED_OBJECTS` is set; a static one would run its `main`, so it is never started
/// that way. A script (`#!`) runs its interpreter, which is judged the same way.
package enum ExecutableImage {
    /// Whether `path` is a dynamically linked ELF executable, or a script whose interpreter is one.
    package static func loaderStops(_ path: String, depth: Int = 0) -> Bool {
        guard depth < 3, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 65_536) else { return false }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0x23, 0x21]) {  // "#!": the interpreter is what runs
            let line = bytes.dropFirst(2).prefix { $0 != 0x0A }
            let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let interpreter = words.first, interpreter.hasPrefix("/") else { return false }
            return loaderStops(String(interpreter), depth: depth + 1)
        }
        return hasInterpreter(bytes)
    }

    /// Whether the ELF image in `bytes` names a program interpreter (PT_INTERP = 3), reading
    /// the header of a 32- or 64-bit little-endian file (elf(5)); false for anything else.
    static func hasInterpreter(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 52, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]), bytes[5] == 1 else { return false }
        func read(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= bytes.count else { return nil }
            return (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let wide = bytes[4] == 2
        guard bytes[4] == 1 || wide,
            let table = read(wide ? 0x20 : 0x1C, wide ? 8 : 4),
            let entrySize = read(wide ? 0x36 : 0x2A, 2),
            let entries = read(wide ? 0x38 : 0x2C, 2), entrySize >= 4
        else { return false }
        return (0..<entries).contains { read(table + $0 * entrySize, 4) == 3 }
    }
}
