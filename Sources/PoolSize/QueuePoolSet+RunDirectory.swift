import Foundation
import PoolSizeOutput

extension QueuePoolSet {
    /// The pool a sweep recommended: the count for the measured tier from a run directory's
    /// recommendation.json (measure with `poolsize sweep`, ship the file, use it here); other
    /// tiers keep `defaultCount`.
    /// - Parameters:
    ///   - url: a run directory or its recommendation.json.
    ///   - defaultCount: queues for the tiers the sweep did not measure.
    ///   - label: prefix of the queues' labels.
    public convenience init(
        recommendationAt url: URL, defaultCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        label: String = "poolsize.pool"
    ) throws(PoolSizeError) {
        let file =
            url.lastPathComponent == RunDirectory.File.recommendation.rawValue
            ? url : RunDirectory(url).url(.recommendation)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw .inputNotFound(
                path: file.path, hint: "pass a run directory written by 'poolsize sweep', or its recommendation.json")
        }
        let set = try RunDirectoryJSON.decode(RecommendationSet.self, from: text, path: file.path)
        self.init(recommendation: set.best, defaultCount: defaultCount, label: label)
    }
}
