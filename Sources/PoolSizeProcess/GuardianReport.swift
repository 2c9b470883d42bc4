import Foundation

/// The guardian process's report pipe (`poolsize_spawn_guarded`): pairs of Int32, kind and
/// value, where kind 3 carries the child's wait status. Both children run under a guardian
/// (observe's `-- CMD`, a server sweep's server) read it the same way.
package enum GuardianReport {
    /// Reads what the guardian has said on `report` (non-blocking) until the child's wait
    /// status is known or nothing more is there; a guardian gone without a word took the child
    /// along (its death signal), which counts as SIGKILL.
    package static func update(_ status: inout Int32?, from report: Int32) {
        var message: (Int32, Int32) = (0, 0)
        while status == nil {
            let count = withUnsafeMutableBytes(of: &message) { read(report, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count == 0 { status = SIGKILL }
            guard count == MemoryLayout<(Int32, Int32)>.size else { return }
            if message.0 == 3 { status = message.1 }
        }
    }
}
