import Foundation
import PoolSize

// The README's batch, as a user writes it: every upload submitted at once, then `shutdown()`,
// which waits for them while the pool keeps sizing itself. An upload here is a stand-in for
// blocking IO: 1 ms of the thread's CPU, then a 10 ms sleep (W/C 10, so on 2 cores the formula
// says 2 × (1 + 10) = 22 queues).
//
// Usage: AdaptiveBatch [adaptive | fixed N] [UPLOADS]   (default: adaptive 500)
// Prints the time the batch took, the queue count, and the adaptive pool's status.
@Sendable func upload(_ file: Int) {
    var start = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    var now = start
    repeat {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    } while (now.tv_sec - start.tv_sec) * 1_000_000_000 + (now.tv_nsec - start.tv_nsec) < 1_000_000
    usleep(10_000)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let fixedSize = arguments.first == "fixed" ? arguments.dropFirst().first.flatMap { Int($0) } : nil
if arguments.first == "fixed" && (fixedSize ?? 0) < 1 {
    FileHandle.standardError.write(Data("error: 'fixed' needs a queue count of 1 or more, e.g. fixed 22\n".utf8))
    exit(64)
}
let countArgument = arguments.dropFirst(fixedSize == nil ? (arguments.first == "adaptive" ? 1 : 0) : 2).first
let count = countArgument.flatMap { Int($0) } ?? 500
if count < 1 {
    FileHandle.standardError.write(Data("error: UPLOADS must be a whole number of 1 or more, e.g. 500\n".utf8))
    exit(64)
}
let files = Array(0..<count)
let started = Date()

if let fixedSize {
    let uploads = QueuePool(size: fixedSize, qos: .utility)
    for file in files {
        uploads.submit { upload(file) }
    }
    uploads.shutdown()
    let seconds = Date().timeIntervalSince(started)
    // The batch's own throughput, so `poolsize sweep --load '… fixed {size}'` can sweep it.
    print(
        "fixed \(fixedSize): \(count) uploads in \(String(format: "%.3f", seconds)) s (\(String(format: "%.1f", Double(count) / seconds)) uploads/s)"
    )
} else {
    // The README's example, as written there.
    let uploads = AdaptiveQueuePool(minimum: 2, maximum: 64, qos: .utility)
    for file in files {
        uploads.submit { upload(file) }  // blocking IO: the pool grows toward cores × (1 + W/C)
    }
    uploads.shutdown()  // waits for every upload, resizing while they run
    print(uploads.size)  // the queue count it settled on
    print("adaptive: \(count) uploads in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
    print(uploads.status)  // what it measured, and why it has that size
}
