/// A whitespace-separated data file a chart reads: comment lines naming its columns, then one
/// block per line drawn (gnuplot's `index`), blocks two blank lines apart.
package struct PlotData: Equatable, Sendable {
    /// One block of rows, with comment lines saying what it is.
    package struct Block: Equatable, Sendable {
        package var comments: [String] = []
        package var rows: [[PlotCell]]
    }

    /// File name beside the script: `throughput.dat`.
    package var name: String
    /// Comment lines at the top of the file.
    package var header: [String]
    package var blocks: [Block]
}
