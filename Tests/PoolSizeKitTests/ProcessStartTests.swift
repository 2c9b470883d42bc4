import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Testing

/// A command's program started alone (`CommandSource.measureProcessStart`) against the same
/// command's C, on real programs: one whose whole cost is starting, one whose cost is its work.
/// Both figures come from the same machine in the same test, so the share does not depend on
/// its speed.
@Suite struct ProcessStartTests {
    /// Median C of `runs` tasks of `source`, µs, as the sweep charges a task (through the
    /// `Workload` protocol, as the trial calls it).
    func taskCPU(_ source: CommandSource, runs: Int = 9) -> Double {
        let workload: any Workload = CommandWorkload(source: source)
        let cpus = (0..<runs).map { index -> Double in
            let outcome = workload.execute(task: UInt64(index))
            #expect(outcome.failure == nil, "\(outcome.failure ?? "")")
            return Double(outcome.childCPUNanoseconds + (outcome.cpuNanoseconds ?? 0)) / 1e3
        }
        return cpus.sorted()[runs / 2]
    }

    /// `true` does nothing but start: the loader's start alone is most of a task's C (it only
    /// lacks libc's start-up and an empty `main`), past the half that makes it "mostly start-up".
    @Test func startingIsMostOfACommandThatDoesNothing() throws {
        let source = try CommandSource(arguments: ["true"])
        let start = try #require(source.measureProcessStart(runs: 9))
        #expect(start.program == source.executable)
        #expect(start.runs == 9)
        #expect(start.cpuMicroseconds > 0)
        let task = taskCPU(source)
        #expect(start.cpuMicroseconds >= 0.5 * task, "start \(start.cpuMicroseconds) µs, task \(task) µs")
    }

    /// A shell counting to 200000 spends its C counting: the start of `sh` is a sliver of it.
    @Test func startingIsASliverOfACommandThatWorks() throws {
        let source = try CommandSource(
            arguments: ["sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"])
        let start = try #require(source.measureProcessStart(runs: 5))
        let task = taskCPU(source, runs: 3)
        #expect(start.cpuMicroseconds < 0.1 * task, "start \(start.cpuMicroseconds) µs, task \(task) µs")
    }

    /// A baseline command is run whole, in place of the loader's start, and named in the result;
    /// one that fails says why; an empty or missing one is refused when the source is made.
    @Test func aBaselineIsRunWholeAndNamed() throws {
        let source = try CommandSource(arguments: ["true"], baseline: ["sh", "-c", ":"])
        let start = try #require(source.measureProcessStart(runs: 3))
        #expect(start.baseline == "sh -c :")
        #expect(start.runs == 3)
        #expect(start.cpuMicroseconds > 0)
        #expect(source.baselineFailure() == nil)
        let failing = try CommandSource(arguments: ["true"], baseline: ["sh", "-c", "exit 3"])
        #expect(failing.baselineFailure() == "sh -c 'exit 3' exited with status 3; it wrote nothing on stderr")
        #expect(try CommandSource(arguments: ["true"]).baselineFailure() == nil)
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: "no-such-client",
                hint:
                    "no such program on PATH, or not one that runs; `commandBaseline` runs a program on PATH or at a path"
            )
        ) {
            try CommandSource(arguments: ["true"], baseline: ["no-such-client"])
        }
        #expect(
            throws: PoolSizeError.invalidParameter(
                .commandBaseline, message: "is empty; give a command that starts the program and does nothing")
        ) {
            try CommandSource(arguments: ["true"], baseline: [])
        }
    }

    /// The probe never runs the program: a script's body does not run (it would create a file),
    /// its interpreter stops in the loader.
    @Test func theProbeRunsNoneOfTheProgram() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-start-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("ran")
        let script = directory.appendingPathComponent("task.sh")
        try "#!/bin/sh\ntouch '\(marker.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let source = try CommandSource(arguments: [script.path])
        #expect(source.measureProcessStart(runs: 3) != nil)
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    /// Which files the loader can start without running them (elf(5)): a dynamically linked
    /// program and a script whose interpreter is one can; a static program, a script without
    /// an absolute interpreter and a text file cannot.
    @Test func onlyProgramsTheLoaderStopsAreProbed() throws {
        #expect(ExecutableImage.loaderStops("/bin/sh"))
        if FileManager.default.fileExists(atPath: "/sbin/ldconfig") {
            // Debian's ldconfig is static-pie: no PT_INTERP.
            #expect(!ExecutableImage.loaderStops("/sbin/ldconfig"))
        }
        #expect(!ExecutableImage.loaderStops("/nonexistent/program"))
        // A 64-bit little-endian header with one program header of type PT_INTERP (3) at 0x40,
        // then the same with PT_LOAD (1) alone.
        var header = [UInt8](repeating: 0, count: 0x40 + 56)
        header[0...5] = [0x7F, 0x45, 0x4C, 0x46, 2, 1]
        header[0x20] = 0x40
        header[0x36] = 56
        header[0x38] = 1
        header[0x40] = 3
        #expect(ExecutableImage.hasInterpreter(header))
        header[0x40] = 1
        #expect(!ExecutableImage.hasInterpreter(header))
        #expect(!ExecutableImage.hasInterpreter(Array("#!/bin/sh\necho hi\n".utf8)))
    }
}
