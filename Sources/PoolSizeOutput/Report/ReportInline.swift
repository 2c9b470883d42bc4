/// The inline markup of `ReportDocument` text: `**bold**`, `` `code` `` and a backslash that
/// makes the next character literal. Text that comes from a user or from files (workload names,
/// CPU model, command lines, reasons read back from recommendation.json) enters only through
/// `literal(_:)`, so it is data in every rendering: a name holding `<script>`, `**` or a backquote
/// prints as those characters in Markdown and in HTML alike.
package enum ReportInline {
    package enum Token: Equatable, Sendable {
        case text(String)
        case code(String)
        /// Opens or closes bold.
        case strong
    }

    /// `text` as literal document text: markup characters escaped, control characters (a line
    /// break would end a Markdown table row or paragraph) turned into spaces.
    package static func literal(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                out.append(" ")
            } else {
                if scalar == "\\" || scalar == "*" || scalar == "`" { out.append("\\") }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as a literal code span.
    package static func code(_ text: String) -> String {
        "`" + literal(text) + "`"
    }

    /// The text without its markup, for places that take plain text (an HTML title, alt text).
    package static func plain(_ text: String) -> String {
        tokens(text).map { token in
            switch token {
            case let .text(t), let .code(t): t
            case .strong: ""
            }
        }.joined()
    }

    /// Splits document text into tokens; an unclosed code span runs to the end.
    package static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inCode = false
        var rest = Substring(text)
        func flush() {
            if inCode { tokens.append(.code(current)) } else if !current.isEmpty { tokens.append(.text(current)) }
            current = ""
        }
        while let c = rest.first {
            if c == "\\", let next = rest.dropFirst().first {
                current.append(next)
                rest = rest.dropFirst(2)
            } else if c == "`" {
                flush()
                inCode.toggle()
                rest = rest.dropFirst()
            } else if !inCode && rest.hasPrefix("**") {
                flush()
                tokens.append(.strong)
                rest = rest.dropFirst(2)
            } else {
                current.append(c)
                rest = rest.dropFirst()
            }
        }
        flush()
        return tokens
    }
}
