import Foundation

/// Which pool a thread belongs to: the `--group` rules first (on the thread's name or its
/// process's title), else its name with trailing numbers and separators stripped, so
/// `worker-12`, `pool-1-thread-3` and `NIO-ELT-0-#1` join `worker`, `pool-1-thread` and
/// `NIO-ELT`. Names are all a thread has: comm is 15 bytes (JVM names come truncated,
/// `http-nio-8080-e`) and CPython and Go name every thread after the program (docs/platform.md).
///
/// Processes are told apart by their titles: when threads of one name live in several processes
/// whose titles differ (`titleKey`), each title forms its own pool, so a supervisor
/// (PostgreSQL's postmaster, nginx's master) and differently titled helpers (the checkpointer,
/// the WAL writer) do not join the workers they share a name with.
package struct PoolGrouping: Sendable {
    private let rules: [(expression: NSRegularExpression, rule: GroupRule)]
    /// The most words a title key keeps.
    static let titleKeyWords = 4

    /// Grouping with `rules` tried in order before the default.
    package init(rules: [GroupRule]) {
        self.rules = rules.compactMap { rule in
            (try? NSRegularExpression(pattern: rule.pattern)).map { ($0, rule) }
        }
    }

    /// The pool of a thread named `comm` in a process titled `title`, alone (no other process
    /// to tell it from).
    package func pool(of comm: String, title: String? = nil) -> String {
        ruled(comm: comm, title: title) ?? Self.stripped(comm)
    }

    /// The pool of every thread (`comm` by thread, `titles` by process).
    func pools(of threads: [ThreadKey: String], titles: [Int32: String]) -> [ThreadKey: String] {
        var result: [ThreadKey: String] = [:]
        var byName: [String: [ThreadKey]] = [:]
        for (key, comm) in threads {
            if let name = ruled(comm: comm, title: titles[key.pid]) {
                result[key] = name
            } else {
                byName[Self.stripped(comm), default: []].append(key)
            }
        }
        for (name, keys) in byName {
            let keyOf = Dictionary(
                uniqueKeysWithValues: Set(keys.map(\.pid)).map { pid in (pid, titles[pid].flatMap(Self.titleKey)) })
            let split = keyOf.count > 1 && Set(keyOf.values.compactMap { $0 }).count > 1
            for key in keys { result[key] = split ? (keyOf[key.pid]?.flatMap { $0 } ?? name) : name }
        }
        return result
    }

    private func ruled(comm: String, title: String?) -> String? {
        ruleIndex(comm: comm, title: title).map { rules[$0].rule.name }
    }

    /// The first rule that matches, by its place in the rules.
    private func ruleIndex(comm: String, title: String?) -> Int? {
        for (index, rule) in rules.enumerated() {
            let text: String
            switch rule.rule.field {
            case .threadName: text = comm
            case .title:
                guard let title else { continue }
                text = title
            }
            if rule.expression.firstMatch(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text)) != nil {
                return index
            }
        }
        return nil
    }

    /// The rules that placed none of `threads` (`comm` by thread, `titles` by process) in their
    /// pool: their pattern matched nothing, or only threads an earlier rule took.
    func unmatchedRules(of threads: [ThreadKey: String], titles: [Int32: String]) -> [GroupRule] {
        var placed = Set<Int>()
        for (key, comm) in threads {
            if let index = ruleIndex(comm: comm, title: titles[key.pid]) { placed.insert(index) }
        }
        return rules.indices.filter { !placed.contains($0) }.map { rules[$0].rule }
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

    /// What of a process title names its role, the same for every process of one kind: the
    /// program's file name, then the words up to the first that varies from process to
    /// process (one holding a digit, `(`, `[`, `/` or `=`: an address, a port, a path, a
    /// setting), at most four, without trailing options. `postgres: app db 127.0.0.1(5000)
    /// SELECT` → `postgres: app db`; `/usr/lib/postgresql/15/bin/postgres -D /data` →
    /// `postgres`; `nginx: worker process` stays whole. nil for an empty title.
    package static func titleKey(_ title: String) -> String? {
        let words = title.split(separator: " ")
        guard let first = words.first else { return nil }
        var key = [first.split(separator: "/").last.map(String.init) ?? String(first)]
        for word in words.dropFirst() {
            if key.count == titleKeyWords || word.contains(where: { $0.isNumber || "([/=".contains($0) }) { break }
            key.append(String(word))
        }
        while key.count > 1, key.last?.hasPrefix("-") == true { key.removeLast() }
        return key.joined(separator: " ")
    }
}
