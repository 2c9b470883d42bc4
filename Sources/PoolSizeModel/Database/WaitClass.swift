/// What a database backend was doing at one sample of `pg_stat_activity`, in the classes that
/// say why a connection pool's curve bends: waiting on a row or table lock, on the server's
/// internal locks, on storage, on the client, in a timed sleep, or running.
package enum WaitClass: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    /// A heavyweight lock (`wait_event_type` Lock: a row's transaction, a table, an advisory lock).
    case lock
    /// An internal lock of the server (`LWLock`: buffer mapping, WAL insertion…).
    case lwlock
    /// Storage (`IO`: data file reads, WAL writes and syncs).
    case io
    /// The backend waits for the client (`ClientRead`, `ClientWrite`): idle between the
    /// client's commands, or sending it rows.
    case client
    /// A timed sleep (`Timeout`: `pg_sleep` is `PgSleep`).
    case timeout
    /// Running: state `active` with no wait event.
    case cpu
    /// Any other wait (`IPC`, `Activity`, `BufferPin`, `Extension`).
    case other

    /// The class of one `pg_stat_activity` row from its `state` and `wait_event_type` (empty
    /// when NULL); nil for a row that is no work of a client's (a backend starting, or
    /// one whose state the server hides).
    package init?(state: String, waitEventType: String) {
        switch waitEventType {
        case "Lock": self = .lock
        case "LWLock": self = .lwlock
        case "IO": self = .io
        case "Timeout": self = .timeout
        case "Client": self = .client
        case "":
            if state == "active" {
                self = .cpu
            } else if state.hasPrefix("idle") {
                // Idle with no wait event reported: still the client's turn.
                self = .client
            } else {
                return nil
            }
        default: self = .other
        }
    }

    /// The name `pg_stat_activity` gives the class, for the report (`Lock`, `Timeout/pg_sleep`).
    package var label: String {
        switch self {
        case .lock: return "Lock"
        case .lwlock: return "LWLock"
        case .io: return "IO"
        case .client: return "Client"
        case .timeout: return "Timeout/pg_sleep"
        case .cpu: return "CPU"
        case .other: return "other waits"
        }
    }
}
