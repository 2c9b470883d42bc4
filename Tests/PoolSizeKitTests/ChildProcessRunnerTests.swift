import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Testing

/// The watchdog and the deadlock classification against shell stand-ins for the outcomes a
/// child can have. Each test is bounded by a short watchdog, so none can hang; no assertion is
/// about speed beyond "the watchdog fired rather than the child's own 30 s".
@Suite struct ChildProcessRunnerTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")
    static let ready = "echo '\(ChildScenario.readyMarker)'"

    /// SIGTERM first; a child that ignores it gets SIGKILL a second later.
    @Test func childIgnoringSIGTERMIsKilled() {
        let child = ChildProcessRunner(timeoutSeconds: 0.3).run(
            executable: Self.shell, arguments: ["-c", "trap '' TERM; \(Self.ready); exec sleep 30"])
        #expect(child.outcome == .timedOut(afterSeconds: 0.3))
        #expect(child.seconds < 20, "SIGKILL, not the child's own 30 s, ended the run")
        #expect(child.standardOutput.contains(ChildScenario.readyMarker))
    }

    /// The child's CPU time comes with its exit (wait4's rusage): a shell counting has some, one
    /// that sleeps hardly any.
    @Test func theChildsCPUTimeIsMeasured() {
        let busy = ChildProcessRunner(timeoutSeconds: 20).run(
            executable: Self.shell, arguments: ["-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"])
        #expect(busy.outcome == .exited(code: 0))
        #expect(busy.cpuSeconds > 0)
        let idle = ChildProcessRunner(timeoutSeconds: 20).run(
            executable: Self.shell, arguments: ["-c", "exec sleep 0.3"])
        #expect(idle.outcome == .exited(code: 0))
        #expect(idle.cpuSeconds < idle.seconds)
    }

    /// A child that prints without end (a load tool's progress: 200 MB once took 431 MB of
    /// poolsize's memory) is read back from its last 1 MiB only, from the first whole line in
    /// it: its summary, printed last, is there.
    @Test func onlyTheLastMebibyteOfOutputIsRead() {
        let child = ChildProcessRunner(timeoutSeconds: 60).run(
            executable: Self.shell,
            arguments: ["-c", "yes 'progress 0123456789' | head -c 5000000; echo; echo 'Requests/sec: 1234.5'"])
        #expect(child.outcome == .exited(code: 0))
        #expect(child.standardOutput.utf8.count <= UnlinkedFile.readLimit)
        #expect(child.standardOutput.utf8.count > UnlinkedFile.readLimit - 100)
        #expect(child.standardOutput.hasPrefix("progress 0123456789\n"))
        #expect(child.standardOutput.hasSuffix("\nRequests/sec: 1234.5\n"))
        let short = ChildProcessRunner(timeoutSeconds: 10).run(executable: Self.shell, arguments: ["-c", "echo one"])
        #expect(short.standardOutput == "one\n")
    }

    /// The environment given is the child's whole environment.
    @Test func environmentIsPassedAsGiven() {
        let child = ChildProcessRunner(timeoutSeconds: 10).run(
            executable: Self.shell, arguments: ["-c", "echo \"$ONLY_THIS-$HOME\""], environment: ["ONLY_THIS": "x"])
        #expect(child.outcome == .exited(code: 0))
        #expect(child.standardOutput == "x-\n")
    }

    /// Issue 31, finding 11: a child that prints and exits, leaving a background job that holds
    /// its stdout, was reported as hanging when the watchdog fired (the run waited for the end
    /// of its output), and the job was left running. The run ends with the child, its output
    /// whole, and the job goes with the child's process group.
    @Test func aBackgroundJobHoldingTheOutputNeitherDelaysNorOutlivesTheRun() {
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        let child = ChildProcessRunner(timeoutSeconds: 5).run(
            executable: Self.shell, arguments: ["-c", "sleep \(marker) & echo 5"])
        #expect(child.outcome == .exited(code: 0))
        #expect(child.standardOutput == "5\n")
        #expect(Self.waitForNone(marker).isEmpty, "left running: \(Self.processes(marker))")
    }

    /// The watchdog stops the child's whole group: a job it started in the background too.
    @Test func theWatchdogStopsTheWholeGroup() {
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        let child = ChildProcessRunner(timeoutSeconds: 0.3).run(
            executable: Self.shell, arguments: ["-c", "sleep \(marker) & sleep \(marker)"])
        #expect(child.outcome == .timedOut(afterSeconds: 0.3))
        #expect(Self.waitForNone(marker).isEmpty, "left running: \(Self.processes(marker))")
    }

    /// Processes whose command line names `marker` (a zombie's is empty: it is dead).
    static func processes(_ marker: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }.filter {
            ((try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "").contains(marker)
        }
    }

    /// `processes(marker)` once it is empty, or after 3 s (a killed process is gone within
    /// milliseconds; the bound only keeps a failing test from hanging).
    static func waitForNone(_ marker: String) -> [String] {
        let deadline = Date().addingTimeInterval(3)
        while !processes(marker).isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return processes(marker)
    }

    @Test func hangingChildIsKilledByTheWatchdog() {
        let child = ChildProcessRunner(timeoutSeconds: 0.5).run(
            executable: Self.shell, arguments: ["-c", "\(Self.ready); exec sleep 30"])
        #expect(child.outcome == .timedOut(afterSeconds: 0.5))
        #expect(child.seconds < 20, "the watchdog, not the child, ended the run")
        let observation = DeadlockProbe.observation(of: child, watchdogSeconds: 0.5)
        #expect(observation.reachedSync)
        #expect(observation.classification == .hang)
        #expect(observation.result().verdict == .holds)
    }

    @Test func trappingChildIsClassifiedAsATrap() {
        let child = ChildProcessRunner(timeoutSeconds: 10).run(
            executable: Self.shell, arguments: ["-c", "ulimit -c 0; \(Self.ready); kill -TRAP $$"])
        #expect(child.outcome == .signaled(signal: SIGTRAP))
        let observation = DeadlockProbe.observation(of: child, watchdogSeconds: 10)
        #expect(observation.classification == .trap)
        #expect(observation.result().verdict == .holds)
        #expect(observation.result().observed.hasPrefix("trap: killed by SIGTRAP (5)"))
    }

    @Test func childThatReturnsContradictsTheClaim() {
        let child = ChildProcessRunner(timeoutSeconds: 10).run(
            executable: Self.shell, arguments: ["-c", "\(Self.ready); echo '\(ChildScenario.returnedMarker)'"])
        #expect(child.outcome == .exited(code: 0))
        #expect(DeadlockProbe.observation(of: child, watchdogSeconds: 10).result().verdict == .differs)
    }

    @Test func childThatFailsEarlySaysNothing() {
        let child = ChildProcessRunner(timeoutSeconds: 10).run(
            executable: Self.shell, arguments: ["-c", "echo 'error: no such mode' >&2; exit 64"])
        #expect(child.outcome == .exited(code: 64))
        let observation = DeadlockProbe.observation(of: child, watchdogSeconds: 10)
        #expect(observation.errorSummary == "error: no such mode")
        #expect(observation.result().verdict == .cannotTell)
    }

    @Test func missingExecutableIsReportedNotThrown() {
        let child = ChildProcessRunner(timeoutSeconds: 1).run(
            executable: URL(fileURLWithPath: "/nonexistent/poolsize"), arguments: [])
        guard case .failedToStart = child.outcome else {
            Issue.record("expected failedToStart, got \(child.outcome)")
            return
        }
        #expect(DeadlockProbe(executable: nil).run().verdict == .cannotTell)
    }

    /// The Swift backtracer's report of libdispatch's trap, trimmed to what matters.
    @Test func errorSummaryFindsTheCrashSite() {
        let backtrace = """
            *** Signal 4: Backtracing from 0x7f604b7dd7d8... done ***

            *** Program crashed: Illegal instruction at 0x00007f604b7dd7d8 ***

            Thread 1 "-qos.overcommit" crashed:

              0              0x00007f604b7dd7d8 __DISPATCH_WAIT_FOR_QUEUE__ + 344 in libdispatch.so
              1 [ra]         0x00007f604b7dd2d3 _dispatch_sync_f_slow + 194 in libdispatch.so

            Backtrace took 0.11s
            """
        #expect(DeadlockProbe.errorSummary(backtrace) == "crashed in __DISPATCH_WAIT_FOR_QUEUE__ (libdispatch.so)")
        #expect(DeadlockProbe.errorSummary("x\nFatal error: boom\nBacktrace took 0.1s\n") == "Fatal error: boom")
        #expect(DeadlockProbe.errorSummary("one\ntwo\n\nBacktrace took 0.1s") == "two")
        #expect(DeadlockProbe.errorSummary("") == nil)
    }
}
