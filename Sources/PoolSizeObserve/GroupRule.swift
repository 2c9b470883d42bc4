import Foundation

/// A grouping override, `REGEX=NAME`: threads whose name matches REGEX (ICU syntax, as
/// NSRegularExpression reads it, anywhere in the name) form the pool NAME. The first matching
/// rule wins.
package struct GroupRule: Equatable, Sendable, Codable {
    /// The regular expression, as given.
    package var pattern: String
    /// The pool's name.
    package var name: String

    /// Why a rule's text was refused.
    package enum Problem: Error, Equatable, Sendable {
        /// No `=`, or nothing on one side of it.
        case notPatternEqualsName
        /// The pattern does not compile; the reason is the regex engine's.
        case invalidPattern(String)
    }

    /// A rule from its parts; throws when the pattern does not compile.
    package init(pattern: String, name: String) throws(Problem) {
        guard !pattern.isEmpty, !name.isEmpty else { throw .notPatternEqualsName }
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw .invalidPattern(error.localizedDescription)
        }
        self.pattern = pattern
        self.name = name
    }

    /// Parses `REGEX=NAME`, split at the last `=` (a pattern may hold `=`, a name may not).
    package init(parsing text: String) throws(Problem) {
        guard let split = text.lastIndex(of: "=") else { throw .notPatternEqualsName }
        try self.init(pattern: String(text[..<split]), name: String(text[text.index(after: split)...]))
    }
}
