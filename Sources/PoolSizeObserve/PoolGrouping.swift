import Foundation

/// Which pool a thread belongs to, from its name: the `--group` rules first, else the name with
/// its trailing numbers and separators stripped, so `worker-12`, `pool-1-thread-3` and
/// `NIO-ELT-0-#1` join `worker`, `pool-1-thread` and `NIO-ELT`. Names are all there is: comm is
/// 15 bytes (JVM names come truncated, `http-nio-8080-e`) and CPython and Go name every thread
/// after the program (docs/platform.md).
package struct PoolGrouping: Sendable {
    private let rules: [(expression: NSRegularExpression, name: String)]

    /// Grouping with `rules` tried in order before the default.
    package init(rules: [GroupRule]) {
        self.rules = rules.compactMap { rule in
            (try? NSRegularExpression(pattern: rule.pattern)).map { ($0, rule.name) }
        }
    }

    /// The pool of a thread named `comm`.
    package func pool(of comm: String) -> String {
        let range = NSRange(comm.startIndex..<comm.endIndex, in: comm)
        for rule in rules where rule.expression.firstMatch(in: comm, range: range) != nil { return rule.name }
        return Self.stripped(comm)
    }

    /// `comm` without trailing digits and separators (`-`, `_`, `.`, `#`, `:`, `/`, space); the
    /// name itself when nothing would be left.
    package static func stripped(_ comm: String) -> String {
        let separators: Set<Character> = ["-", "_", ".", "#", ":", "/", " "]
        var name = Substring(comm)
        while let last = name.last, last.isASCII && last.isNumber || separators.contains(last) {
            name = name.dropLast()
        }
        return name.isEmpty ? comm : String(name)
    }
}
