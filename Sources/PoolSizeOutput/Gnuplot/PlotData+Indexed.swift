extension PlotData {
    /// One block per item, in order, each headed `index N: LABEL` as gnuplot's `index` counts
    /// them, so that a script's `index N` and the file's comment name the same line.
    package static func indexed<Item>(
        _ items: [Item], label: (Item) -> String, rows: (Item) -> [[PlotCell]]
    ) -> [Block] {
        items.enumerated().map { index, item in Block(comments: ["index \(index): \(label(item))"], rows: rows(item)) }
    }
}
