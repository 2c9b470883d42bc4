import Foundation
import Testing

@testable import PoolSizeCLI

/// Issue 31, the hostile battery against `observe`: targets with nothing to observe (a zombie, a
/// kernel thread), `--counter`'s failures in plain words, a counter that went down, and task-rate
/// figures that cannot be right. Each is one line naming the PID or the flag, with its own exit
/// code. Only processes the tests start are observed (a kernel thread is only read).
@Suite(.serialized) struct ObserveRefusalTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observe-refusal-\(UUID())")

    static func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try ObserveCommandTests.run(arguments, timeoutSeconds: 60)
    }

    /// A kernel thread's pid (PF_KTHREAD in its stat flags), when this machine shows one.
    static let kernelThread: Int32? = {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.sorted().first { pid in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 6 && (UInt64(fields[6]) ?? 0) & 0x0020_0000 != 0
        }
    }()

    /// A child that exited and was not reaped: observe read its /proc files and printed
    /// "observer 105.5% of one core", exit 6, an empty --out directory. Refused up front now.
    @Test func aZombieIsRefusedBeforeAnythingIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        // The shell's background child exits at once; `exec sleep` never reaps it.
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", "true & exec sleep 60"]
        try parent.run()
        defer {
            // SIGKILL: a test runner may start us with SIGTERM blocked, and sleep inherits that.
            kill(parent.processIdentifier, SIGKILL)
            parent.awaitExit()
        }
        let pid = parent.processIdentifier
        var zombie: Int32?
        for _ in 0..<200 where zombie == nil {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            zombie = children.split(separator: " ").compactMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }.first { child in
                let stat = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
                return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
            }
            if zombie == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        let child = try #require(zombie, "the shell's child became a zombie")
        let out = root.appendingPathComponent("zombie")
        let result = try Self.run(["observe", String(child), "--duration", "1s", "--out", out.path])
        #expect(result.code == 10)
        #expect(
            result.stderr
                == "observe: pid \(child) has exited (zombie: its parent has not reaped it yet), so there is nothing "
                + "to observe; give the PID of a running process (ps -e), or start the target with 'poolsize observe "
                + "[options] -- CMD ARGS…'\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.path), "no run directory is left")
    }

    /// A kernel thread's states read as `read` syscalls ("busy 100%, W/C 27912"); refused now.
    @Test(.enabled(if: kernelThread != nil, "no kernel thread is visible here"))
    func aKernelThreadIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let pid = try #require(Self.kernelThread)
        let out = root.appendingPathComponent("kernel")
        let result = try Self.run(["observe", String(pid), "--duration", "1s", "--out", out.path])
        #expect(result.code == 11)
        #expect(
            result.stderr
                == "observe: pid \(pid) is a kernel thread: it runs no user-space code, so it has no pool to size; "
                + "give the PID of an application's process (ps -e lists kernel threads in [brackets])\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// `--counter`'s failures in the words the rest of the tool uses.
    @Test func aCounterFailureSaysPlainlyWhatHappened() throws {
        let empty = try Self.run(["observe", "--duration", "1s", "--counter", "", "--", "/bin/sleep", "30"])
        #expect(empty.code == 64)
        #expect(
            empty.stderr
                == "error: --counter: is empty; give a command printing the running total of the pool's tasks, e.g. "
                + "--counter 'cat /run/app/requests'\n")
        let killed = try Self.run([
            "observe", "--duration", "1s", "--counter", "sh -c 'kill -9 $$'", "--", "/bin/sleep", "30",
        ])
        #expect(killed.code == 64)
        #expect(
            killed.stderr
                == "error: --counter: the command was killed by signal 9 (SIGKILL) as the observation started; run "
                + "it by hand to see why\n")
        let bytes = try Self.run([
            "observe", "--duration", "1s", "--counter", "printf '\\377\\376'", "--", "/bin/sleep", "30",
        ])
        #expect(bytes.code == 64)
        #expect(
            bytes.stderr
                == "error: --counter: the command printed something that is not text (bytes that are not UTF-8) as "
                + "the observation started, not one number; make it print only the running total (pipe through awk "
                + "'{print $N}' inside sh -c '…')\n")
        // The watchdog's 10 s are not waited for here: the words are the command's own.
        #expect(
            ObserveCommand.counterError(
                .failed(outcome: .timedOut(afterSeconds: 10), standardError: ""), when: "as the observation started"
            ).description
                == "error: --counter: the command did not finish within 10 s and was stopped as the observation "
                + "started; run it by hand to see why")
    }

    /// A total that went down is refused after the figures, and recorded in observation.json
    /// and the report instead of leaving no trace.
    @Test func aCounterThatWentDownIsRecorded() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let flag = root.appendingPathComponent("read-once").path
        let out = root.appendingPathComponent("down")
        // 1200 at the first read, 15 at the second: a counter that restarted in between.
        let counter = "sh -c 'if [ -e \"$0\" ]; then echo 15; else : > \"$0\"; echo 1200; fi' \(flag)"
        let result = try Self.run([
            "observe", "--duration", "1s", "--counter", counter, "--out", out.path, "--", "/bin/sleep", "30",
        ])
        #expect(result.code == 64)
        #expect(
            result.stderr.hasSuffix(
                "error: --counter: the total went down from 1200 to 15 between its two reads: the counter restarted, "
                    + "so the figures above have no per-task part (the observation's settings.counter keeps both "
                    + "totals); observe again, or use --throughput R/s\n"), "\(result.stderr)")
        let json = try String(contentsOf: out.appendingPathComponent("observation.json"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let recorded = try #require((object["settings"] as? [String: Any])?["counter"] as? [String: Any])
        #expect(recorded["went_down"] as? Bool == true)
        #expect(recorded["first"] as? Double == 1200 && recorded["last"] as? Double == 15)
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("the total went down (the counter restarted), so no task rate was taken from it"))
    }

    /// Figures no pool can have are refused, naming the flag and the bound.
    @Test func absurdTaskRateFiguresAreRefused() throws {
        let rate = try Self.run(["observe", "--duration", "1s", "--throughput", "1e300/s", "--", "/bin/sleep", "30"])
        #expect(rate.code == 64)
        #expect(
            rate.stderr
                == "error: --throughput: must be above 0 and at most 1e9/s (a task per nanosecond), got 1e300/s\n")
        let pool = try Self.run([
            "observe", "--duration", "1s", "--throughput", "10/s", "--pool", "nosuchpool", "--", "/bin/sleep", "30",
        ])
        #expect(pool.code == 64)
        #expect(
            pool.stderr
                == "error: --pool: 'nosuchpool' matches no pool of the target (the pools found: sleep); the figures "
                + "above have no per-task part; give one of those names\n")
        #expect(pool.stdout.contains("sleep"), "the figures are printed first")
        // λ·D = 1000/s × 1 s = 1000 tasks in a pool of one thread.
        let latency = try Self.run([
            "observe", "--duration", "1s", "--format", "json", "--throughput", "1000/s", "--latency", "1s", "--",
            "/bin/sleep",
            "30",
        ])
        #expect(latency.code == 64)
        #expect(
            latency.stderr
                == "error: --latency: λ·D = 1000 tasks in pool 'sleep' on average, more than 100 per thread (it has "
                + "1): --latency must be the mean time a task spends inside the pool, at most 100 ms at this rate; "
                + "the figures above leave it out\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(latency.stdout.utf8)) as? [String: Any])
        #expect((object["settings"] as? [String: Any])?["latency_seconds"] == nil, "the figures leave it out")
    }
}
