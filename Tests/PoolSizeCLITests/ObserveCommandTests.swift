import Foundation
import Testing

/// `poolsize observe`: its flags and messages, and known-answer runs on a C pool the test builds
/// and starts itself (Tests/Fixtures/observe-targets/pool_target.c), compared with the figures
/// that target prints about itself, so nothing here depends on how fast the machine is. Only
/// processes the tests start are observed; the target talks to nobody (pipes only).
@Suite(.serialized) struct ObserveCommandTests {
    /// The C compiler: the system's, or the clang every Swift toolchain ships beside `swift`
    /// (found on PATH), so the tests run wherever the package builds.
    static let compiler: String? = {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/clang" }
        return (["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"] + path).first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// pool_target.c built once per run beside the poolsize binary under test (in the build
    /// directory, so no run leaves a file in TMPDIR): compiled under a name of its own, then
    /// renamed over the last run's, which a test process running beside this one may hold.
    static let target: String? = {
        guard let compiler else { return nil }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/observe-targets/pool_target.c")
        let directory = EndToEndTests.binary.deletingLastPathComponent()
        let built = directory.appendingPathComponent("poolsize-pool-target-\(UUID())")
        let output = directory.appendingPathComponent("poolsize-pool-target")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        // -lm after the source: the target calls fmod, and without libm it does not link, which
        // left every test that needs it skipped.
        process.arguments = ["-O2", "-pthread", "-o", built.path, source.path, "-lm"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        guard process.awaitExit().code == 0, rename(built.path, output.path) == 0 else {
            try? FileManager.default.removeItem(at: built)
            return nil
        }
        return output.path
    }()

    /// Runs poolsize with a bound on its time; SIGKILL when it overruns (then code is 137).
    /// `environment` holds variables set over this process's (a PATH with a fake gnuplot).
    static func run(
        _ arguments: [String], timeoutSeconds: Double = 60, environment: [String: String]? = nil,
        whileRunning: ((Process) -> Void)? = nil
    ) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("poolsize-observe-test-\(UUID()).out"),
            errURL = directory.appendingPathComponent("poolsize-observe-test-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        whileRunning?(process)
        let exit = process.awaitExit(timeout: timeoutSeconds)
        let text = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return (exit.code, text(outURL), text(errURL))
    }

    /// The `truth` line a target printed, as numbers.
    static func truth(_ text: String) -> [String: Double]? {
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("truth ") }) else { return nil }
        var fields: [String: Double] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }

    @Test func aPIDOrACommandIsNeededButNotBoth() throws {
        let none = try Self.run(["observe"])
        #expect(none.code == 64)
        #expect(
            none.stderr
                == "error: PID: missing; give the PID of a running process, or start one with 'poolsize observe [options] -- CMD ARGS…'\n"
        )
        let both = try Self.run(["observe", "1", "--", "true"])
        #expect(both.code == 64)
        #expect(both.stderr == "error: PID: give a PID or '-- CMD', not both\n")
    }

    @Test func flagsAreCheckedBeforeAnythingRuns() throws {
        let latency = try Self.run(["observe", "1", "--latency", "10ms"])
        #expect(latency.code == 64)
        #expect(latency.stderr.hasPrefix("error: --latency: needs --throughput"))
        let group = try Self.run(["observe", "1", "--group", "worker"])
        #expect(group.code == 64)
        #expect(
            group.stderr
                == "error: --group: 'worker' is not [title:]REGEX=NAME; write it like 'http-nio-.*=tomcat' or "
                + "'title:^postgres: =postgres'\n")
        let rate = try Self.run(["observe", "1", "--rate", "0"])
        #expect(rate.stderr == "error: --rate: '0' is not auto or a rate of 0.1 to 1000 sweeps per second\n")
        let duration = try Self.run(["observe", "1", "--duration", "30"])
        #expect(duration.stderr.hasPrefix("error: --duration: '30' has no unit"))
    }

    /// Issue 33, finding 4: a `--group` pattern the regex engine refuses is one line naming
    /// `--group`, its cause and the fix, exit 64 (it gave Foundation's "The operation could not
    /// be completed. The value is invalid.").
    @Test func aGroupPatternThatDoesNotCompileSaysWhyAndHow() throws {
        let fix =
            "; write '.*' for any text (not a shell's '*') and a backslash before ( ) [ ] . * + ? meant as themselves, "
            + "as in 'http-nio-.*=tomcat'\n"
        let open = try Self.run(["observe", "1", "--group", "(worker=pool"])
        #expect(open.code == 64)
        #expect(
            open.stderr == "error: --group: '(worker=pool' is not a regular expression (a '(' is never closed)" + fix)
        let star = try Self.run(["observe", "--group", "*worker=pool", "--", "/bin/true"])
        #expect(star.code == 64)
        #expect(
            star.stderr
                == "error: --group: '*worker=pool' is not a regular expression ('*' at its start has nothing to repeat)"
                + fix)
    }

    /// Issue 33, finding 4: a `--group` that placed no thread says so on a warning line of the
    /// table, naming it (it was silent); one that did is not named.
    @Test func aGroupThatMatchedNoThreadIsNamed() throws {
        let result = try Self.run([
            "observe", "--duration", "1s", "--group", "nomatch-.*=ghosts", "--group", "^sleep$=sleepers", "--",
            "/bin/sleep", "5",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let pid = try #require(result.stdout.split(separator: " ").dropFirst().first.map(String.init))
        let warnings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(
            warnings == [
                "warning: --group 'nomatch-.*=ghosts' matched no thread name of the target (or only threads an earlier "
                    + "--group took), so pool 'ghosts' is empty; compare the pattern with the thread names "
                    + "(ps -T -o comm -p \(pid))"
            ], "\(result.stdout)")
        #expect(result.stdout.contains("\nsleepers "), "the rule that matched made its pool: \(result.stdout)")
    }

    @Test func aProcessThatDoesNotExist() throws {
        // Above any pid_max the kernel allows (2^22), so never a live process.
        let result = try Self.run(["observe", "2147483646", "--duration", "1s"])
        #expect(result.code == 66)
        #expect(
            result.stderr
                == "error: pid 2147483646: not found; no such process; give the PID of a running process (ps -e), or start the target with 'poolsize observe [options] -- CMD ARGS…'\n"
        )
        let missing = try Self.run(["observe", "--duration", "1s", "--", "/nonexistent/program"])
        #expect(missing.code == 66)
        #expect(missing.stderr.hasPrefix("error: /nonexistent/program: not found; not an executable file"))
    }

    /// Issue 33, finding 3: a command observe started that ends before `--duration` ends the
    /// observation with it, as `time` and `perf stat` do: its figures over its life, one line
    /// saying when it ended, exit 0 (it was exit 6, "pid … exited after 0.5 s"). `sleep 0.5`
    /// against a 10-minute observation: one that did not stop with it would take 600 s, 5 times
    /// the bound.
    @Test func aCommandThatEndsBeforeTheDurationEndsTheObservation() throws {
        let started = Date()
        let result = try Self.run(["observe", "--duration", "10min", "--", "/bin/sleep", "0.5"], timeoutSeconds: 120)
        #expect(Date().timeIntervalSince(started) < 120, "observe stops when its command does")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr == "", "no limit, no error: \(result.stderr)")
        #expect(result.stdout.contains("sleep"), "the pool table is printed: \(result.stdout)")
        let ended = result.stdout.split(separator: "\n").filter { $0.hasPrefix("ended: ") }
        #expect(ended.count == 1, "\(result.stdout)")
        #expect(ended.first?.hasPrefix("ended: the command ended ") == true, "\(ended)")
        #expect(
            ended.first?.hasSuffix(
                " into the 600 s asked for (by the sweep that found it gone); the figures cover its life") == true,
            "\(ended)")
        let json = try Self.run(["observe", "--duration", "10min", "--format", "json", "--", "/bin/sleep", "0.3"])
        #expect(json.code == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["limits"] as? [Any])?.isEmpty ?? true, "\(object["limits"] ?? "")")
        #expect(object["command_ended_seconds"] is Double, "\(object.keys.sorted())")
    }

    /// A running process given by PID that exits before the end: what was measured is printed,
    /// then one line says so, exit 6, as before. The test starts the process itself.
    @Test func aProcessThatExitsMidRunKeepsWhatWasMeasured() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["1"]
        try sleeper.run()
        defer {
            if sleeper.isRunning { kill(sleeper.processIdentifier, SIGKILL) }
            sleeper.awaitExit()
        }
        let pid = sleeper.processIdentifier
        let result = try Self.run(["observe", String(pid), "--duration", "10min"], timeoutSeconds: 120)
        #expect(result.code == 6, "\(result.stderr)")
        #expect(result.stdout.contains("sleep"), "the pool table is printed: \(result.stdout)")
        #expect(!result.stdout.contains("ended: "), "\(result.stdout)")
        #expect(result.stderr.hasPrefix("observe: pid \(pid) exited after "), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                " s: the figures cover the observation until then; observe a process that outlives --duration, or shorten it\n"
            ), "\(result.stderr)")
    }

    /// The C pool with a known answer: 4 workers, 40 tasks/s, each blocking 20 ms in read() on a
    /// pipe and computing 5 ms. Observe must find the pool by name, its 4 threads, their blocking
    /// calls, and a known-IO W/C and busy fraction. How near those come to the target's own truth
    /// is an accuracy figure: scripts/benchmark-observe.sh checks it (W/C within 15%, busy within
    /// 10 points, this target its first row).
    @Test
    func theCPoolIsFoundWithItsWaitToCPU() throws {
        let target = try #require(Self.target)
        let result = try Self.run([
            "observe", "--duration", "2s", "--rate", "50", "--format", "json", "--", target, "--workers", "4", "--rate",
            "40", "--io-ms", "20", "--cpu-ms", "5",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let truth = try #require(Self.truth(result.stderr), "the target printed its truth on SIGTERM: \(result.stderr)")
        #expect((truth["tasks"] ?? 0) > 0, "the target ran tasks: \(truth)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pools = try #require(object["pools"] as? [[String: Any]])
        let worker = try #require(
            pools.first { $0["name"] as? String == "worker" }, "pools: \(pools.map { $0["name"] ?? "?" })")
        #expect(worker["threads"] as? Int == 4)
        let ratio = try #require((worker["wait_to_cpu"] as? [String: Double])?["low"])
        #expect(ratio.isFinite && ratio > 0, "observed W/C \(ratio)")
        let busy = try #require((worker["busy"] as? [String: Double])?["low"])
        #expect(busy > 0 && busy <= 1, "observed busy \(busy)")
        let calls = (worker["top_calls"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        // The workers wait for tasks in epoll_wait on the task pipe: a wait that could be a task's.
        #expect(calls.contains("epoll_wait pipe") && calls.contains("read pipe"), "\(calls)")
        let sampler = try #require(object["sampler"] as? [String: Any])
        #expect((sampler["sweeps"] as? Int ?? 0) > 10)
    }

    /// `--children`: two processes of the target's (a shell's children) form one pool of their
    /// threads by name. Found by the rescan once a second, so the run lasts 3 s.
    @Test
    func childrenJoinOnePool() throws {
        let target = try #require(Self.target)
        let script = "'\(target)' --workers 2 & '\(target)' --workers 3 & wait"
        let result = try Self.run([
            "observe", "--children", "--duration", "3s", "--rate", "50", "--format", "json", "--", "/bin/sh", "-c",
            script,
        ])
        #expect([0, 6].contains(result.code), "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pools = try #require(object["pools"] as? [[String: Any]])
        let worker = try #require(
            pools.first { $0["name"] as? String == "worker" }, "pools: \(pools.map { $0["name"] ?? "?" })")
        #expect(worker["threads"] as? Int == 5, "2 + 3 workers in two processes")
        #expect((object["target"] as? [String: Any])?["includes_children"] as? Bool == true)
    }

    /// Ctrl-C ends the observation early: the figures so far are printed, the started target is
    /// stopped, exit 130; nothing outlives the run.
    @Test
    func ctrlCStopsTheTargetAndPrintsWhatWasMeasured() throws {
        let target = try #require(Self.target)
        let result = try Self.run(
            ["observe", "--duration", "60s", "--format", "json", "--", target], timeoutSeconds: 30
        ) { process in
            Thread.sleep(forTimeInterval: 1.5)
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.code == 130, "\(result.stderr)")
        #expect(result.stderr.contains("observe: interrupted after "))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pid = try #require((object["target"] as? [String: Any])?["pid"] as? Int32)
        #expect(kill(pid, 0) != 0, "the started target is gone (reaped) once observe has exited")
        #expect(Self.truth(result.stderr) != nil, "it had SIGTERM first, and printed its figures")
    }

    /// Killed outright (SIGKILL, no chance to clean up), observe still leaves no target behind:
    /// the child dies with the thread that started it (PR_SET_PDEATHSIG).
    @Test
    func killingObserveKillsItsTarget() throws {
        let target = try #require(Self.target)
        nonisolated(unsafe) var child: Int32?
        _ = try Self.run(["observe", "--duration", "60s", "--", target], timeoutSeconds: 30) { process in
            let observer = process.processIdentifier
            for _ in 0..<100 where child == nil {
                Thread.sleep(forTimeInterval: 0.05)
                child =
                    (try? String(contentsOfFile: "/proc/\(observer)/task/\(observer)/children", encoding: .utf8))?
                    .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    .first
            }
            kill(observer, SIGKILL)
        }
        let pid = try #require(child, "observe started its target")
        var gone = false
        for _ in 0..<100 where !gone {
            // Gone, or a zombie waiting for init to reap it: either way no longer running.
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            gone = stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z"
            if !gone { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(gone, "pid \(pid) outlived its observer")
        if !gone { kill(pid, SIGKILL) }
    }
}
