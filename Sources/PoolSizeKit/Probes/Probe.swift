import PoolSizeModel

/// One platform claim, reproduced. `run` never hangs: every wait inside has a timeout, and a
/// claim that cannot be observed in time is reported as `cannot tell`.
package protocol Probe: Sendable {
    var name: ProbeName { get }
    func run() -> ProbeResult
}

/// Runs probes in order, times each, and reports each result as it arrives.
package struct ProbeRunner: Sendable {
    package let probes: [any Probe]

    package init(probes: [any Probe]) {
        self.probes = probes
    }

    package func run(willRun: (ProbeName, Int, Int) -> Void = { _, _, _ in }) -> [ProbeResult] {
        probes.enumerated().map { index, probe in
            willRun(probe.name, index, probes.count)
            let t0 = RoundPlanner.now()
            var result = probe.run()
            result.elapsedSeconds = Double(RoundPlanner.now() &- t0) / 1e9
            return result
        }
    }
}
