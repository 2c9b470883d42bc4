import ArgumentParser
import Foundation

/// The arguments `report` and `plot` share: which run to read and where its charts go.
struct RunDirectoryOptions: ParsableArguments {
    @Argument(help: "Run directory written by 'poolsize sweep' (results/<run-id>).", completion: .directory)
    var runDirectory: String

    @Option(
        help: "Directory for the charts' data, gnuplot scripts, SVG and PNG (default: plots/<run-id>).",
        completion: .directory)
    var plots: String?

    var directory: URL { URL(fileURLWithPath: runDirectory) }
}
