/// `report.md`: GitHub-flavoured Markdown, charts linked as SVG by a path relative to the
/// report (so the run directory and the plots directory can live anywhere).
package enum ReportMarkdown {
    /// - Parameter chartDirectory: path from the report's directory to the charts' directory,
    ///   ending in `/` (or empty when they are the same).
    package static func render(_ document: ReportDocument, chartDirectory: String) -> String {
        var parts = ["# " + inline(document.title)]
        for block in document.blocks {
            switch block {
            case let .heading(level, text):
                parts.append(String(repeating: "#", count: level) + " " + inline(text))
            case let .paragraph(text):
                parts.append(inline(text))
            case let .table(header, rows, numeric):
                var lines = [row(header)]
                lines.append(
                    "|"
                        + header.indices.map { numeric.indices.contains($0) && numeric[$0] ? "--:" : "---" }.joined(
                            separator: "|") + "|")
                lines += rows.map(row)
                parts.append(lines.joined(separator: "\n"))
            case let .bullets(items):
                parts.append(items.map { "- " + inline($0) }.joined(separator: "\n"))
            case let .chart(name, caption, note):
                parts.append("### " + inline(caption))
                parts.append("![\(inline(caption))](\(chartDirectory)\(name).svg)")
                parts.append(inline(note))
            case let .mermaid(text):
                parts.append("```mermaid\n" + text + "\n```")
            case let .code(text):
                let fence = fence(for: text, minimum: 3)
                parts.append(fence + "\n" + text + "\n" + fence)
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    /// A table row; GitHub splits cells at every `|`, inside code spans too, unless escaped.
    static func row(_ cells: [String]) -> String {
        "| "
            + cells.map {
                inline($0).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            }.joined(separator: " | ") + " |"
    }

    /// Document inline text as GitHub-flavoured Markdown. Plain text has the characters that
    /// would start markup, an HTML tag or an entity backslash-escaped (CommonMark: any ASCII
    /// punctuation may be); a code span gets a backtick fence longer than any run inside it, so
    /// its content is shown as written and never parsed as HTML.
    static func inline(_ text: String) -> String {
        ReportInline.tokens(text).map { token in
            switch token {
            case .strong:
                return "**"
            case let .text(plain):
                var out = ""
                for c in plain {
                    if "\\`*_[]<>&~".contains(c) { out.append("\\") }
                    out.append(c)
                }
                return out
            case let .code(content):
                let fence = fence(for: content, minimum: 1)
                let pad = content.hasPrefix("`") || content.hasSuffix("`") ? " " : ""
                return fence + pad + content + pad + fence
            }
        }.joined()
    }

    /// A run of backticks longer than any in `text` (and at least `minimum`), so `text` cannot
    /// close the code span or block it opens.
    static func fence(for text: String, minimum: Int) -> String {
        var longest = 0, run = 0
        for c in text {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return String(repeating: "`", count: max(minimum, longest + 1))
    }
}
