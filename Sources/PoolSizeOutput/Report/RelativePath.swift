import Foundation

/// Paths between directories, for links that keep working when the tree is moved or attached
/// to a CI artifact: `report.md` in `results/<id>/` links `../../plots/<id>/throughput.svg`.
package enum RelativePath {
    /// The path from directory `base` to `target`, ending in `/` (`""` when they are the same).
    /// Both are made absolute against `currentDirectory` and standardized (`.`/`..` removed)
    /// first; symbolic links are resolved when the paths exist.
    package static func from(
        _ base: URL, to target: URL, currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        let from = components(base, currentDirectory), to = components(target, currentDirectory)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let parts = ups + to[common...]
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    static func components(_ url: URL, _ currentDirectory: String) -> [String] {
        let absolute = url.path.hasPrefix("/") ? url.path : currentDirectory + "/" + url.path
        var standardized = URL(fileURLWithPath: absolute).standardizedFileURL
        if FileManager.default.fileExists(atPath: standardized.path) {
            standardized = standardized.resolvingSymlinksInPath()
        }
        return standardized.path.split(separator: "/").map(String.init)
    }

    /// `path` as a user would type it from `currentDirectory`: relative when it is inside it,
    /// absolute otherwise. For messages.
    package static func display(_ url: URL, currentDirectory: String = FileManager.default.currentDirectoryPath)
        -> String
    {
        let relative = from(URL(fileURLWithPath: currentDirectory), to: url, currentDirectory: currentDirectory)
        if relative.isEmpty { return "." }
        if relative.hasPrefix("..") {
            return URL(fileURLWithPath: url.path.hasPrefix("/") ? url.path : currentDirectory + "/" + url.path)
                .standardizedFileURL.path
        }
        return String(relative.dropLast())
    }
}
