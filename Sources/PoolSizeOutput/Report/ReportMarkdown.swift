/// `report.md`: GitHub-flavoured Markdown, charts linked as SVG by a path relative to the
/// report (so the run directory and the plots directory can live anywhere).
public enum ReportMarkdown {
    /// - Parameter chartDirectory: path from the report's directory to the charts' directory,
    ///   ending in `/` (or empty when they are the same).
    public static func render(_ document: ReportDocument, chartDirectory: String) -> String {
        var parts = ["# " + document.title]
        for block in document.blocks {
            switch block {
            case let .heading(level, text):
                parts.append(String(repeating: "#", count: level) + " " + text)
            case let .paragraph(text):
                parts.append(text)
            case let .table(header, rows, numeric):
                var lines = [row(header)]
                lines.append("|" + header.indices.map { numeric.indices.contains($0) && numeric[$0] ? "--:" : "---" }.joined(separator: "|") + "|")
                lines += rows.map(row)
                parts.append(lines.joined(separator: "\n"))
            case let .bullets(items):
                parts.append(items.map { "- " + $0 }.joined(separator: "\n"))
            case let .chart(name, caption, note):
                parts.append("### " + caption)
                parts.append("![\(caption)](\(chartDirectory)\(name).svg)")
                parts.append(note)
            case let .code(text):
                parts.append("```\n" + text + "\n```")
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }.joined(separator: " | ") + " |"
    }
}
