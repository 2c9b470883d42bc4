/// A row of values on a time grid, held only from the first bucket that got anything to the
/// last: a pool that lived a minute of a day-long observation keeps a minute's buckets. Widening
/// the grid (`mergePairs`) halves the row. Internal to the estimator.
struct Buckets<Element: Sendable>: Sendable {
    /// The grid index of `values[0]`.
    private(set) var first = 0
    private(set) var values: [Element] = []
    private let empty: Element

    init(empty: Element) { self.empty = empty }

    /// The grid index one past the last bucket held.
    var end: Int { first + values.count }

    /// The bucket at grid index `index`; empty where nothing was held. Setting one grows the row.
    subscript(index: Int) -> Element {
        get { index >= first && index < end ? values[index - first] : empty }
        set {
            if values.isEmpty {
                first = index
                values = [newValue]
                return
            }
            if index < first {
                values.insert(contentsOf: repeatElement(empty, count: first - index), at: 0)
                first = index
            } else if index >= end {
                values.append(contentsOf: repeatElement(empty, count: index - end + 1))
            }
            values[index - first] = newValue
        }
    }

    /// The grid at twice the width: buckets 2k and 2k + 1 become bucket k, combined in order.
    mutating func mergePairs(_ combine: (Element, Element) -> Element) {
        guard !values.isEmpty else { return }
        var merged = Buckets(empty: empty)
        for index in first..<end {
            merged[index / 2] =
                index / 2 >= merged.first && index / 2 < merged.end
                ? combine(merged[index / 2], self[index]) : self[index]
        }
        self = merged
    }

    /// Each held bucket with its grid index, in order.
    var indexed: [(index: Int, value: Element)] { values.indices.map { (first + $0, values[$0]) } }
}
