import Foundation
import PoolSizeModel

/// The one rule for the directory a command writes its run into (`sweep --out`, `observe --out`),
/// checked before anything is measured. A directory may be used when it is missing or empty
/// (`.lock`, the sweep's own lock file, and empty folders aside: `plotsDirectory` inside it is
/// made, empty, before the run); when it holds a run of the same kind, only to
/// replace it (`replaceRun`) or, for a sweep, to continue it (`resumeRun`); when it holds anything
/// else, only with `replaceRun`, and then the run's files are written into it and nothing else
/// there is touched. A run of the other kind is never replaced: a sweep's trials.csv and an
/// observation cannot share a directory, and nobody asks for one to replace the other. Files
/// the tool did not write are never deleted.
extension ExportManager {
    /// The kind of run a command writes.
    package enum RunKind: Sendable {
        /// `poolsize sweep`: trials.csv and what follows from it.
        case sweep
        /// `poolsize observe --out`: observation.json, pools/, the report.
        case observation
    }

    /// What a directory named for writing holds, once the rule has allowed it.
    package enum Claim: Equatable, Sendable {
        /// Missing or empty: nothing is there to replace.
        case fresh
        /// A run of the same kind, to be replaced or continued: its files may be removed.
        case sameKind
        /// Files of someone else's, written into with `replaceRun`: nothing there is removed.
        case foreign
    }

    /// Checks `directory` against the rule for a run of `kind` opened in `mode` (observe has no
    /// `.resume`). Throws `runDirectoryTaken` (exit 73), one line naming the directory and the
    /// fix, when the rule refuses it; a path that is a file is left to the writer, whose error
    /// says so. Reads only: nothing is created or removed.
    package static func claim(_ directory: URL, for kind: RunKind, mode: Mode) throws(PoolSizeError) -> Claim {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0 != ".lock" && !$0.hasPrefix(".poolsize-write-check-")
                && !isEmptyFolder(directory.appendingPathComponent($0))
        }
        if entries.isEmpty { return .fresh }
        let has = { (file: RunDirectory.File) in entries.contains(file.rawValue) }
        let held: RunKind? = has(.trials) ? .sweep : has(.observation) ? .observation : nil
        let (out, force, resume) = (
            PoolSizeError.Parameter.runDirectory.mention, PoolSizeError.Parameter.replaceRun.mention,
            PoolSizeError.Parameter.resumeRun.mention
        )
        switch held {
        case kind?:
            if mode != .create { return .sameKind }
            throw .runDirectoryTaken(
                path: directory.path,
                reason: kind == .sweep
                    ? "a run directory is already there (it has trials.csv); pass \(force) to replace it, or "
                        + "\(resume) \(directory.path) to continue it"
                    : "an observation's run directory is already there (it has observation.json); pass \(force) to "
                        + "replace it, or choose another \(out)")
        case let other?:
            let (what, file, writer) =
                other == .sweep
                ? ("a sweep's run", RunDirectory.File.trials, "an observation")
                : ("an observation", RunDirectory.File.observation, "a sweep")
            throw .runDirectoryTaken(
                path: directory.path,
                reason:
                    "it holds \(what) (\(file.rawValue)), which \(writer) does not replace, even with \(force); choose "
                    + "another \(out), or remove that directory first")
        case nil:
            if mode == .replace { return .foreign }
            throw .runDirectoryTaken(
                path: directory.path,
                reason:
                    "it is not empty and holds no run (\(listing(entries, in: directory))); choose a new or empty "
                    + "directory, or pass \(force) to write the run into it (files of the same names are replaced, "
                    + "nothing else is touched)")
        }
    }

    /// Whether `url` is a folder (not a link to one) holding nothing but such folders, to a
    /// depth of 8.
    static func isEmptyFolder(_ url: URL, depth: Int = 8) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        guard depth > 0, type == .typeDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return false }
        return names.allSatisfy { isEmptyFolder(url.appendingPathComponent($0), depth: depth - 1) }
    }

    /// Up to four names, directories marked with `/`, then how many more.
    static func listing(_ entries: [String], in directory: URL) -> String {
        let names = entries.sorted().map { name in
            RunDirectory.isDirectory(directory.appendingPathComponent(name)) ? name + "/" : name
        }
        let shown = names.prefix(4).joined(separator: ", ")
        return names.count > 4 ? "\(shown) and \(names.count - 4) more" : shown
    }
}
