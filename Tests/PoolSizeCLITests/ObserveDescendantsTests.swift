import Foundation
import Testing

/// Issue 31, findings 11 and 12: nothing `observe -- CMD` or `--counter` starts outlives the
/// observation. Not a background job of the command's, not one that left its process group and
/// session with setsid, not after SIGKILL of observe (which left the command's children running
/// under init, and its output files in TMPDIR); and a counter that prints its total and exits,
/// leaving a background job on its stdout, is read, not reported as hanging. Every process is
/// found by a marker in its command line (a `sleep` of a unique length), in /proc.
@Suite(.serialized) struct ObserveDescendantsTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observe-desc-\(UUID())")
    let marker = "30.\(Int.random(in: 100_000...999_999))"

    /// Processes whose command line names the marker, `except` observe itself (a zombie's is
    /// empty: it is dead, only not yet reaped).
    func survivors(except observe: Int32? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
            Int32($0) != nil && Int32($0) != observe
        }.filter {
            ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").contains(marker)
        }
    }

    /// The `sleep`s running with the marker.
    func sleeps() -> Int {
        survivors().filter {
            ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").hasPrefix("sleep\0")
        }.count
    }

    /// `survivors()` once empty, or after 20 s: a killed process is gone within milliseconds,
    /// the bound only keeps a failing test from hanging.
    func waitForNoSurvivors() -> [String] {
        let deadline = Date().addingTimeInterval(20)
        while !survivors().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return survivors()
    }

    /// Stops whatever a failed test left running, by its marker.
    func stopSurvivors() {
        for pid in survivors() { kill(Int32(pid)!, SIGKILL) }
    }

    var temporary: URL { scratch.appendingPathComponent("tmp") }

    /// `poolsize observe ARGUMENTS` with its own TMPDIR, started and not waited for.
    func start(_ arguments: [String]) throws -> Process {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let observe = Process()
        observe.executableURL = EndToEndTests.binary
        observe.arguments = ["observe"] + arguments
        observe.standardOutput = FileHandle.nullDevice
        observe.standardError = FileHandle.nullDevice
        observe.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { _, new in new }
        try observe.run()
        return observe
    }

    /// The command's background job and a job that called setsid end with the observation.
    @Test func jobsThatLeaveTheGroupEndWithTheObservation() throws {
        defer {
            stopSurvivors()
            try? FileManager.default.removeItem(at: scratch)
        }
        let observe = try start([
            "--duration", "1s", "--", "/bin/sh", "-c", "sleep \(marker) & setsid sleep \(marker) & sleep \(marker)",
        ])
        let observeExit = observe.awaitExit()
        #expect(observeExit.code == 0)
        #expect(waitForNoSurvivors().isEmpty, "left behind: \(survivors())")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) == [], "temporary files left")
    }

    /// Killed mid-observation, by SIGKILL too: the command, its background job and its setsid'd
    /// job go, and no file is left in TMPDIR.
    @Test(arguments: [SIGKILL, SIGTERM, SIGINT]) func aSignalledObservationLeavesNothing(signal: Int32) throws {
        defer {
            stopSurvivors()
            try? FileManager.default.removeItem(at: scratch)
        }
        let observe = try start([
            "--duration", "60s", "--", "/bin/sh", "-c", "sleep \(marker) & setsid sleep \(marker) & sleep \(marker)",
        ])
        let deadline = Date().addingTimeInterval(60)
        while sleeps() < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(sleeps() == 3, "the command's three sleeps never ran: \(survivors())")
        kill(observe.processIdentifier, signal)
        let observeExit = observe.awaitExit()
        #expect(observeExit.code == (signal == SIGKILL ? SIGKILL : 130))
        #expect(waitForNoSurvivors().isEmpty, "left behind: \(survivors())")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) == [], "temporary files left")
    }

    /// Every process of `root`'s tree (itself included, by /proc's parent links) with its
    /// process group and name (comm).
    func tree(of root: Int32) -> [(pid: Int32, group: Int32, name: String)] {
        var rows: [(pid: Int32, parent: Int32, group: Int32, name: String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.range(of: ") ", options: .backwards)
            else { continue }
            // After the name: state, parent, process group.
            let fields = stat[close.upperBound...].split(separator: " ")
            guard fields.count > 2, let parent = Int32(fields[1]), let group = Int32(fields[2]) else { continue }
            rows.append((pid, parent, group, String(stat[stat.index(after: open)..<close.lowerBound])))
        }
        var inTree: Set<Int32> = [root], grew = true
        while grew {
            grew = false
            for row in rows where !inTree.contains(row.pid) && inTree.contains(row.parent) {
                inTree.insert(row.pid)
                grew = true
            }
        }
        return rows.filter { inTree.contains($0.pid) }.map { ($0.pid, $0.group, $0.name) }
    }

    /// Issue 33, finding 1: observe killed as `killall -9 poolsize` or `pkill -9 poolsize` kill it
    /// (each process of its name) or as `kill -9 %1` does (its process group), here limited to
    /// observe's own tree. The guardian, a fork of observe's with its name and in its group, died
    /// with it: the command died of PR_SET_PDEATHSIG, its busy loop and its sleep ran on under
    /// init. Now the guardian has a name and a group of its own, outlives observe and stops them.
    @Test(arguments: ["name", "group"]) func observeKilledByNameOrGroupLeavesNothing(killedBy: String) throws {
        defer {
            stopSurvivors()
            try? FileManager.default.removeItem(at: scratch)
        }
        let observe = try start([
            "--duration", "60s", "--", "/bin/sh", "-c",
            "sh -c 'while :; do :; done' busy-\(marker) & sleep \(marker) & wait",
        ])
        let busy = {
            survivors().contains {
                ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").contains("busy-")
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while (sleeps() < 1 || !busy()) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(sleeps() == 1 && busy(), "the command's loop and sleep never ran: \(survivors())")
        let processes = tree(of: observe.processIdentifier)
        let root = try #require(processes.first { $0.pid == observe.processIdentifier })
        let killed = processes.filter { killedBy == "name" ? $0.name == root.name : $0.group == root.group }
        for process in killed { kill(process.pid, SIGKILL) }
        #expect(observe.awaitExit().code == SIGKILL)
        #expect(waitForNoSurvivors().isEmpty, "left behind: \(survivors()), killed \(killed.map(\.pid))")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) == [], "temporary files left")
    }

    /// A counter that prints its total and exits, leaving a job in the background that holds
    /// its stdout: both reads succeed (the total did not move, which is a note, not an error),
    /// and the job is stopped with the counter's process group.
    @Test func aCounterThatLeavesAJobBehindIsReadAndTheJobStopped() throws {
        defer {
            stopSurvivors()
            try? FileManager.default.removeItem(at: scratch)
        }
        let result = try ObserveCommandTests.run([
            "observe", "--duration", "1s", "--counter", "sh -c 'sleep \(marker) & echo 5'", "--", "/bin/sleep", "30",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("note: --counter: the total stayed at 5 over "), "\(result.stderr)")
        #expect(!result.stderr.contains("error"), "\(result.stderr)")
        #expect(waitForNoSurvivors().isEmpty, "left behind: \(survivors())")
    }
}
