import PoolSizeModel

extension Load {
    /// Refuses arrivals paced by the wrong party: tool-paced ones where no load tool given the
    /// rate paces them (`pacedByTool` false: a server without `load`, any other target, a Swift
    /// workload source), and poisson or uniform ones where a server's load tool makes the
    /// arrivals itself. The closed loop has no arrivals to refuse.
    func checkPacing(byTool pacedByTool: Bool) throws(PoolSizeError) {
        guard let arrival else { return }
        if arrival.process == .tool && !pacedByTool {
            throw .invalidParameter(
                .arrivalProcess,
                message:
                    "tool-paced: only a load tool given the rate ({rate} in \(PoolSizeError.Parameter.load.mention), beside \(PoolSizeError.Parameter.server.mention)) spaces its own arrivals; choose poisson or uniform"
            )
        }
        if arrival.process != .tool && pacedByTool {
            throw .invalidParameter(
                .arrivalProcess,
                message:
                    "the load tool spaces its own arrivals at the rate it is given, so they cannot be \(arrival.process.rawValue); drop \(PoolSizeError.Parameter.arrivalProcess.mention) (the plan's process is tool-paced)"
            )
        }
    }
}
