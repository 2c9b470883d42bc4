/// The process an observation looked at.
public struct ObservedTarget: Equatable, Sendable, Codable {
    /// Its process id.
    public var pid: Int32
    /// Its command line (/proc/PID/cmdline, arguments joined by spaces); empty when unreadable.
    public var command: String
    /// Whether observe started it (`observe -- CMD`) and stopped it at the end.
    public var startedByObserver: Bool
    /// Whether its descendants' threads were observed too (`--children`).
    public var includesChildren: Bool

    /// A target.
    public init(pid: Int32, command: String, startedByObserver: Bool, includesChildren: Bool) {
        self.pid = pid
        self.command = command
        self.startedByObserver = startedByObserver
        self.includesChildren = includesChildren
    }
}
