/// The report as a list of blocks, built once from a run and rendered as Markdown
/// (`ReportMarkdown`) or as one self-contained HTML page (`ReportHTML`). Inline text may use
/// `**bold**` and `` `code` ``, the only markup both renderers understand.
package struct ReportDocument: Equatable, Sendable {
    package enum Block: Equatable, Sendable {
        case heading(level: Int, text: String)
        case paragraph(String)
        /// `numeric` marks right-aligned columns.
        case table(header: [String], rows: [[String]], numeric: [Bool])
        case bullets([String])
        /// A chart by file stem, with its caption as alt text and a note under it.
        case chart(name: String, caption: String, note: String)
        case code(String)
        /// A Mermaid diagram (numbers only): rendered by GitHub in Markdown, left out of HTML,
        /// which inlines the SVG charts instead.
        case mermaid(String)
    }

    package var title: String
    package var blocks: [Block]

    package init(title: String, blocks: [Block]) {
        self.title = title
        self.blocks = blocks
    }
}
