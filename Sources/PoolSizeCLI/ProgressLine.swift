import Foundation
import PoolSizeModel
import PoolSizeStats

/// `[12/48] size 32 rep 2 · ETA 14s` on stderr, redrawn in place; silent when not a terminal.
final class ProgressLine {
    let enabled: Bool
    private var started = Date()

    init(enabled: Bool) { self.enabled = enabled }

    /// Redraws the line; `text` is escaped for the terminal (`TerminalText`): only the line's
    /// own CR and erase sequence act on it.
    func update(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(TerminalText.escape(text))".utf8))
    }

    func trial(_ index: Int, of total: Int, label: String) {
        if index == 0 { started = Date() }
        let elapsed = Date().timeIntervalSince(started)
        let eta = index > 0 ? " · ETA \(Int(saturating: elapsed / Double(index) * Double(total - index)))s" : ""
        update("[\(index + 1)/\(total)] \(label)\(eta)")
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
