import Foundation
import PoolSizeModel
import PoolSizeProcess

/// The scratch files of a `file-io` workload: one file each task writes a block to and
/// fsyncs, and one prefilled file each task reads a block of, after dropping that block from
/// the page cache (posix_fadvise DONTNEED) so the device, not memory, serves it. pread and
/// pwrite take explicit offsets, so the pool's threads share the two descriptors.
package final class FileScratch: @unchecked Sendable {
    /// The directory holding the files.
    package let directory: URL
    /// Whether `remove()` deletes the directory itself (a temporary one poolsize made).
    package let ownsDirectory: Bool
    private let writeFD: Int32
    private let readFD: Int32
    private let readFileBytes: Int
    private let writeSlots = 64

    /// Creates the files in `directory`, or in a new temporary directory when nil; the read
    /// file holds `readFileMegabytes` of data so reads land at many offsets.
    package init(directory: URL?, readFileMegabytes: Int = 32) throws(PoolSizeError) {
        let dir =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "poolsize-scratch-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.directory = dir
        ownsDirectory = directory == nil
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw .invalidParameter(
                .scratchDirectory,
                message: "cannot create \(dir.path): \(PoolSizeError.reason(of: error)); choose a writable directory")
        }
        let write = dir.appendingPathComponent("poolsize-write.bin"),
            read = dir.appendingPathComponent("poolsize-read.bin")
        writeFD = open(write.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        readFD = open(read.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        readFileBytes = readFileMegabytes * 1024 * 1024
        guard writeFD >= 0, readFD >= 0 else {
            throw .invalidParameter(
                .scratchDirectory,
                message:
                    "cannot create files in \(dir.path): \(String(cString: strerror(errno))); choose a writable directory"
            )
        }
        // Prefill the read file with bytes that do not compress, and push it to the device.
        var generator = SystemRandomNumberGenerator()
        let chunk = (0..<(1024 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for megabyte in 0..<readFileMegabytes {
            let written = chunk.withUnsafeBytes {
                pwrite(readFD, $0.baseAddress, $0.count, off_t(megabyte * chunk.count))
            }
            guard written == chunk.count else {
                throw .invalidParameter(
                    .scratchDirectory,
                    message:
                        "cannot fill \(read.path): \(String(cString: strerror(errno))); free space or choose another directory"
                )
            }
        }
        fsync(readFD)
    }

    deinit {
        close(writeFD)
        close(readFD)
    }

    /// One task's IO: write `writeBytes` at the task's slot and fsync, then read `readBytes` at
    /// a seeded offset after dropping it from the page cache. Returns an error text, or nil.
    func io(task index: UInt64, writeBytes: Int, readBytes: Int, seed: UInt64) -> String? {
        if writeBytes > 0 {
            let block = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: writeBytes)
            let offset = off_t(Int(index % UInt64(writeSlots)) * writeBytes)
            guard block.withUnsafeBytes({ pwrite(writeFD, $0.baseAddress, $0.count, offset) }) == writeBytes,
                fsync(writeFD) == 0
            else {
                return "write to \(directory.path) failed: \(String(cString: strerror(errno)))"
            }
        }
        if readBytes > 0 {
            var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
            let blocks = max(1, readFileBytes / readBytes)
            let offset = off_t(Int(generator.next() % UInt64(blocks)) * readBytes)
            Platform.dropCachedPages(readFD, offset: Int(offset), length: readBytes)
            var buffer = [UInt8](repeating: 0, count: readBytes)
            guard buffer.withUnsafeMutableBytes({ pread(readFD, $0.baseAddress, $0.count, offset) }) == readBytes else {
                return "read from \(directory.path) failed: \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }

    /// Deletes the files (and the directory, when poolsize made it).
    package func remove() {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("poolsize-write.bin"))
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("poolsize-read.bin"))
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }
}
