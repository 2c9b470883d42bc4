import Foundation

/// `report.html`: the same report as one self-contained page, every chart inlined as a data URI,
/// so a single file can be attached to a ticket.
package enum ReportHTML {
    /// - Parameter svg: a chart's SVG text by file stem, or nil when it was not rendered.
    package static func render(_ document: ReportDocument, svg: (String) -> String?) -> String {
        var body: [String] = ["<h1>\(inline(document.title))</h1>"]
        for block in document.blocks {
            switch block {
            case let .heading(level, text):
                body.append("<h\(level)>\(inline(text))</h\(level)>")
            case let .paragraph(text):
                body.append("<p>\(inline(text))</p>")
            case let .table(header, rows, numeric):
                func cells(_ row: [String], tag: String) -> String {
                    row.enumerated().map { i, cell in
                        let align = numeric.indices.contains(i) && numeric[i] ? " class=\"num\"" : ""
                        return "<\(tag)\(align)>\(inline(cell))</\(tag)>"
                    }.joined()
                }
                var table = "<table>\n<thead><tr>\(cells(header, tag: "th"))</tr></thead>\n<tbody>\n"
                table += rows.map { "<tr>\(cells($0, tag: "td"))</tr>\n" }.joined()
                body.append(table + "</tbody>\n</table>")
            case let .bullets(items):
                body.append("<ul>\n" + items.map { "<li>\(inline($0))</li>\n" }.joined() + "</ul>")
            case let .chart(name, caption, note):
                body.append("<h3>\(inline(caption))</h3>")
                if let text = svg(name) {
                    let uri = "data:image/svg+xml;base64," + Data(text.utf8).base64EncodedString()
                    body.append(
                        "<figure><img alt=\"\(escape(ReportInline.plain(caption)))\" src=\"\(uri)\"><figcaption>\(inline(note))</figcaption></figure>"
                    )
                } else {
                    body.append(
                        "<p class=\"missing\">Chart not rendered: run <code>poolsize plot RUN_DIR</code> once gnuplot is installed (<code>apt-get install --no-install-recommends gnuplot-nox</code>), then <code>poolsize report RUN_DIR</code>.</p>"
                    )
                    body.append("<p>\(inline(note))</p>")
                }
            case .mermaid:
                continue
            case let .code(text):
                body.append("<pre><code>\(escape(text))</code></pre>")
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(escape(ReportInline.plain(document.title)))</title>
            <style>
            body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 880px; margin: 2em auto; padding: 0 1em; color: #1b1b1b; line-height: 1.45; }
            table { border-collapse: collapse; margin: 1em 0; }
            th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; }
            th { background: #f6f8fa; }
            td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
            code { background: #f6f8fa; padding: 1px 4px; border-radius: 3px; }
            figure { margin: 1em 0; }
            figure img { width: 100%; max-width: 800px; border: 1px solid #eee; }
            figcaption, .missing { color: #555; }
            </style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    /// Document inline text as HTML: bold and code spans become tags, everything else is
    /// escaped text.
    static func inline(_ text: String) -> String {
        var out = ""
        var bold = false
        for token in ReportInline.tokens(text) {
            switch token {
            case .strong:
                out += bold ? "</strong>" : "<strong>"
                bold.toggle()
            case let .text(plain):
                out += escape(plain)
            case let .code(content):
                out += "<code>" + escape(content) + "</code>"
            }
        }
        if bold { out += "</strong>" }
        return out
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
