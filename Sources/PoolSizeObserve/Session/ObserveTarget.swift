/// What to observe: a running process, or a command observe starts and stops.
package enum ObserveTarget: Equatable, Sendable {
    /// A process that is already running.
    case process(pid: Int32)
    /// A command (program and arguments, no shell) started as observe's child.
    case command([String])
}
