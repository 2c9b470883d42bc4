/// The process an observation looked at.
package struct ObservedTarget: Equatable, Sendable, Codable {
    /// Its process id.
    package var pid: Int32
    /// Its command line (/proc/PID/cmdline, arguments joined by spaces); empty when unreadable.
    package var command: String
    /// Whether observe started it (`observe -- CMD`) and stopped it at the end.
    package var startedByObserver: Bool
    /// Whether its descendants' threads were observed too (`--children`).
    package var includesChildren: Bool
}
