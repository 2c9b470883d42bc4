import Foundation

/// A grouping override, `REGEX=NAME`: threads whose name matches REGEX (ICU syntax, as
/// NSRegularExpression reads it, anywhere in the name) form the pool NAME; `title:REGEX=NAME`
/// matches the title of the thread's process instead (its command line as the process shows it:
/// PostgreSQL and nginx rewrite theirs to `postgres: user db 127.0.0.1(5000) SELECT`,
/// `nginx: worker process`). `thread:REGEX=NAME` spells the default out, for a pattern that
/// itself starts with `title:`. The first matching rule wins.
package struct GroupRule: Equatable, Sendable, Codable {
    /// What a rule's pattern is matched against.
    package enum Field: String, CaseIterable, Sendable, Codable {
        /// The thread's name (comm, at most 15 bytes).
        case threadName
        /// The title of the thread's process: /proc/PID/cmdline, arguments joined by spaces.
        case title
    }

    /// The regular expression, as given.
    package var pattern: String
    /// The pool's name.
    package var name: String
    /// What the pattern matches.
    package var field: Field

    /// Why a rule's text was refused.
    package enum Problem: Error, Equatable, Sendable {
        /// No `=`, or nothing on one side of it.
        case notPatternEqualsName
        /// The pattern does not compile; the reason in words (`fault(of:)`).
        case invalidPattern(String)
    }

    /// A rule from its parts; throws when the pattern does not compile.
    package init(pattern: String, name: String, field: Field = .threadName) throws(Problem) {
        guard !pattern.isEmpty, !name.isEmpty else { throw .notPatternEqualsName }
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw .invalidPattern(Self.fault(of: pattern))
        }
        self.pattern = pattern
        self.name = name
        self.field = field
    }

    /// Parses `[title:|thread:]REGEX=NAME`, split at the last `=` (a pattern may hold `=`, a
    /// name may not).
    package init(parsing text: String) throws(Problem) {
        var body = Substring(text), field = Field.threadName
        for (prefix, named) in [("title:", Field.title), ("thread:", Field.threadName)] where body.hasPrefix(prefix) {
            body = body.dropFirst(prefix.count)
            field = named
            break
        }
        guard let split = body.lastIndex(of: "=") else { throw .notPatternEqualsName }
        try self.init(
            pattern: String(body[..<split]), name: String(body[body.index(after: split)...]), field: field)
    }

    /// The rule as it is written: `title:` before a title rule's pattern.
    package var text: String { (field == .title ? "title:" : "") + "\(pattern)=\(name)" }

    enum CodingKeys: String, CodingKey {
        case pattern, name, field
    }

    /// Reads a rule; one written before titles could be matched is a thread-name rule.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pattern = try container.decode(String.self, forKey: .pattern)
        name = try container.decode(String.self, forKey: .name)
        field = try container.decodeIfPresent(Field.self, forKey: .field) ?? .threadName
    }
}
