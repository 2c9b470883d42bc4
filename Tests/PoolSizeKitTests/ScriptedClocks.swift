import Dispatch
@testable import PoolSizeKit

/// Clocks whose readings a test scripts: nothing sleeps to a deadline (the time is whatever the
/// script says next), and waiting for a group is a real wait.
protocol ScriptedClocks: MeasurementClocks {}

extension ScriptedClocks {
    func sleep(until deadline: UInt64) {}
    func wait(for group: DispatchGroup, timeoutSeconds: Double) -> Bool {
        group.wait(timeout: .now() + timeoutSeconds) == .success
    }
}
