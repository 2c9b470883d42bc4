import Foundation

extension PostgresServer {
    /// Every block of the guide at `path` (from the repository) that starts a throw-away
    /// cluster (`    eval "$(scripts/pg-cluster.sh start …)"`), its indented lines as written (a
    /// `\` continuation stays for bash to join), in the guide's order.
    static func guideBlocks(_ path: String) throws -> [[String]] {
        let text = try String(
            contentsOf: ServerGuideExampleTests.repository.appendingPathComponent(path), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.filter { lines[$0].hasPrefix("    eval \"$(scripts/pg-cluster.sh start") }.map { start in
            Array(lines[start...].prefix { $0.hasPrefix("    ") }).map { String($0.dropFirst(4)) }
        }
    }

    /// A new directory for a guide's block, its `names` (scripts, Examples) linked to the
    /// repository's; the caller removes it.
    static func guideDirectory(linking names: [String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-guide-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent(name),
                withDestinationURL: ServerGuideExampleTests.repository.appendingPathComponent(name))
        }
        return dir
    }

    /// Runs a guide's block that starts a throw-away cluster on its first line
    /// (`eval "$(scripts/pg-cluster.sh start …)"`) and stops it on its last, as written, in bash
    /// in `dir`, with the built `poolsize` first on PATH. Between its lines only what tells the
    /// test how each ended: `cluster: DIR` after the first, `stopped: CODE` after the last, and the
    /// exit status of the lines between as the block's. Returns the run and the cluster's
    /// directory; `stopLeft` stops a cluster the block did not get to stop.
    static func runGuideBlock(_ block: [String], in dir: URL) throws -> (BinaryRun.Result, cluster: String?) {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = EndToEndTests.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        let script =
            [block[0], "echo \"cluster: $PGCLUSTER_DIR\""] + block[1..<(block.count - 1)] + [
                "status=$?", block[block.count - 1], "echo \"stopped: $?\"", "exit $status",
            ]
        let result = try BinaryRun.run(
            ["-c", script.joined(separator: "\n")], executable: URL(fileURLWithPath: "/bin/bash"),
            environment: environment, directory: dir, timeout: 300)
        let cluster = result.stdout.split(separator: "\n").first { $0.hasPrefix("cluster: ") }.map {
            String($0.dropFirst("cluster: ".count))
        }
        return (result, cluster)
    }

    /// Stops the cluster in `directory` when it is still there (a block that did not reach its
    /// last line); nothing otherwise.
    static func stopLeft(_ directory: String?) {
        guard let directory, !directory.isEmpty, FileManager.default.fileExists(atPath: directory) else { return }
        _ = try? run(URL(fileURLWithPath: "/bin/bash"), [script.path, "stop", directory], seconds: 90)
    }
}
