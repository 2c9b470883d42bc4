/// Reads numbers and words out of /proc text byte by byte. The sampler parses every thread's
/// stat, schedstat and syscall at every sweep, and Swift's Character-level string operations
/// (grapheme breaking on each index step) cost several times the kernel's read; /proc text is
/// ASCII, so bytes are enough. Here, beside `ProcText`, for the observer's other /proc parsers
/// (`SyscallReading`) too.
package struct ByteScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var position: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var atEnd: Bool { position >= bytes.count }

    package mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x09 {
            position += 1
        }
    }

    /// Skips one field and the spaces after it.
    package mutating func skipField() {
        while position < bytes.count, bytes[position] != 0x20, bytes[position] != 0x0A { position += 1 }
        skipSpaces()
    }

    /// A decimal number, then the spaces after it; nil when there is none.
    package mutating func decimal() -> UInt64? {
        let start = position
        var value: UInt64 = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            position += 1
        }
        guard position > start else { return nil }
        skipSpaces()
        return value
    }

    /// A hexadecimal number with an optional `0x`, then the spaces after it.
    package mutating func hexadecimal() -> UInt64? {
        if position + 1 < bytes.count, bytes[position] == 0x30, bytes[position + 1] == 0x78 { position += 2 }
        let start = position
        var value: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: digit = 0xFF
            }
            if digit == 0xFF { break }
            if value >> 60 != 0 { return nil }
            value = value << 4 | UInt64(digit)
            position += 1
        }
        guard position > start else { return nil }
        skipSpaces()
        return value
    }

    /// Whether the bytes from here start with `word`.
    package func startsWith(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return word.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[position + $0] == expected[$0] } }
    }

    /// Runs `body` on the UTF-8 bytes of `text`, without copying a native string.
    package static func scan<T>(_ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
