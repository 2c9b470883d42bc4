/// What starting a command's program costs before it does anything (`--exec`), measured once
/// after the low-load phase: the same spawn path as a task, the program's own executable
/// loaded and linked by the dynamic loader, which then exits before the program's `main`
/// (glibc's `LD_TRACE_LOADED_OBJECTS`, with `LD_BIND_NOW` so every symbol is bound as a task's
/// run binds what it calls). It never runs the program's code, so it is safe for any command
/// and a lower bound: an interpreter's or a client's own start (imports, a connection) comes on
/// top of it. With a baseline command (`--exec-baseline`), that command run whole instead.
package struct ProcessStart: Equatable, Sendable, Codable {
    /// The program started (the resolved executable).
    package var program: String
    /// Starts measured.
    package var runs: Int
    /// Median CPU of one start, µs: the pool thread's spawn and the child's rusage, as a task's C.
    package var cpuMicroseconds: Double
    /// Median wall time of one start, µs.
    package var wallMicroseconds: Double
    /// The baseline command that was run, as it could be typed; nil for the loader-only start.
    package var baseline: String?

    /// A measurement from its figures.
    package init(
        program: String, runs: Int, cpuMicroseconds: Double, wallMicroseconds: Double, baseline: String? = nil
    ) {
        self.program = program
        self.runs = runs
        self.cpuMicroseconds = cpuMicroseconds
        self.wallMicroseconds = wallMicroseconds
        self.baseline = baseline
    }
}
