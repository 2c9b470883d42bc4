import Foundation
import PoolSizeKit

/// A closed loop of `tasksInFlight` tasks on a pool, as the adaptive controller would measure it
/// (docs/platform.md "Measuring W and C"): each task burns `cpu` seconds and waits `wait`;
/// `limit`, when given, caps the throughput at each size the way a lock or a server outside the
/// pool would (the excess shows up as wait, off the CPU). Above the CPUs' capacity a task's
/// extra wall time is run-queue time. `noise` is the relative standard deviation of a window's
/// throughput. The scripted windows the controller tests feed it.
struct ScriptedPlant {
    var cores: Double
    var cpu: Double
    var wait: Double
    var tasksInFlight: Int
    var noise = 0.0
    var limit: ((Int) -> Double)?
    var generator = SeededGenerator(seed: 7)

    /// Tasks per second at `size`, without noise.
    func throughput(_ size: Int) -> Double {
        let busy = Double(min(size, tasksInFlight))
        let open = min(busy / (cpu + wait), cores / cpu)
        return limit.map { min(open, $0(size)) } ?? open
    }

    /// One window of `seconds` at `size`.
    mutating func window(size: Int, seconds: Double) -> AdaptiveWindow {
        let busy = min(size, tasksInFlight)
        guard busy > 0 else { return AdaptiveWindow(seconds: seconds, completed: 0) }
        let ideal = throughput(size)
        let x = max(0, ideal * (1 + noise * gaussian()))
        let completed = Int((x * seconds).rounded())
        let utilization = ideal * cpu / cores
        // Little's law on the busy queues: each task's wall time; what the CPU limit adds is run
        // queue, what a lock or server adds is wait.
        let wall = Double(busy) / ideal
        let cpuLimited = Double(busy) / (cpu + wait) > cores / cpu && ideal >= cores / cpu * 0.999
        let runQueue = cpuLimited ? max(0, wall - cpu - wait) : 0
        let offCPU = max(0, wall - cpu - runQueue)
        let sampled = min(completed, 32)
        return AdaptiveWindow(
            seconds: seconds, completed: completed, sampledTasks: sampled, cpuSeconds: Double(sampled) * cpu,
            waitSeconds: Double(sampled) * offCPU, runQueueSeconds: Double(sampled) * runQueue,
            waitingPeak: max(0, tasksInFlight - size), busyQueues: busy, cpuUtilization: min(1, utilization))
    }

    /// A standard normal draw (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(generator.nextUnit(), 1e-12)
        let u2 = generator.nextUnit()
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
    }
}

/// Runs `controller` on `plant` for `seconds` of windows; the decisions and when each was made.
struct ControllerRun {
    var sizes: [(at: Double, size: Int, reason: AdaptiveDecision.Reason)] = []

    init(_ sizes: [(at: Double, size: Int, reason: AdaptiveDecision.Reason)]) { self.sizes = sizes }

    init(
        _ controller: inout AdaptiveController, plant: inout ScriptedPlant, seconds: Double,
        change: ((Double, inout ScriptedPlant) -> Void)? = nil
    ) {
        var interval = controller.nextInterval()
        var now = 0.0
        while now < seconds {
            change?(now, &plant)
            let window = plant.window(size: controller.size, seconds: interval)
            now += interval
            let decision = controller.decide(window)
            sizes.append((now, decision.size, decision.reason))
            interval = decision.nextIntervalSeconds
        }
    }

    /// The size in force at `time`.
    func size(at time: Double, initial: Int) -> Int {
        sizes.last { $0.at <= time }?.size ?? initial
    }

    /// Times the size turned from growing to shrinking or back in `from..<to`.
    func directionChanges(from: Double = 0, to: Double = .infinity) -> Int {
        var changes = 0
        var last = 0
        var previous: Int?
        for step in sizes where step.at >= from && step.at < to {
            if let previous, step.size != previous {
                let direction = step.size > previous ? 1 : -1
                if last != 0 && direction != last { changes += 1 }
                last = direction
            }
            previous = step.size
        }
        return changes
    }
}

/// Two pools of one process sharing the cores, each a closed loop of `ScriptedPlant`'s tasks:
/// together they get min(busy / (C + W), cores / C) tasks/s, each in proportion to its busy
/// queues, and each controller sees the process's CPU share. Time advances in 1 ms steps; each
/// controller ends its windows at its own, randomised times.
struct SharedPlant {
    var plant: ScriptedPlant
    var controllers: [AdaptiveController]
    var runs: [[(at: Double, size: Int, reason: AdaptiveDecision.Reason)]]

    init(plant: ScriptedPlant, controllers: [AdaptiveController]) {
        self.plant = plant
        self.controllers = controllers
        runs = controllers.map { _ in [] }
    }

    /// Total tasks per second at the current sizes.
    func throughput() -> Double {
        let busy = controllers.map { Double(min($0.size, plant.tasksInFlight)) }.reduce(0, +)
        return min(busy / (plant.cpu + plant.wait), plant.cores / plant.cpu)
    }

    mutating func run(seconds: Double) {
        let dt = 0.001
        var ends = controllers.indices.map { controllers[$0].nextInterval() }
        var starts = controllers.map { _ in 0.0 }
        var completed = controllers.map { _ in 0.0 }
        var runQueue = controllers.map { _ in 0.0 }
        var busyTime = controllers.map { _ in 0.0 }
        var now = 0.0
        while now < seconds {
            let busy = controllers.map { Double(min($0.size, plant.tasksInFlight)) }
            let total = busy.reduce(0, +)
            let x = throughput()
            let wall = total > 0 ? total / x : 0
            let cpuLimited = total / (plant.cpu + plant.wait) > plant.cores / plant.cpu
            let queued = cpuLimited ? max(0, wall - plant.cpu - plant.wait) : 0
            for i in controllers.indices where total > 0 {
                completed[i] += x * busy[i] / total * dt
                runQueue[i] += queued * dt
                busyTime[i] += x * plant.cpu / plant.cores * dt
            }
            now += dt
            for i in controllers.indices where now >= ends[i] {
                let length = now - starts[i]
                let done = Int(completed[i].rounded())
                let sampled = min(done, 32)
                let meanQueue = runQueue[i] / length
                let window = AdaptiveWindow(
                    seconds: length, completed: done, sampledTasks: sampled, cpuSeconds: Double(sampled) * plant.cpu,
                    waitSeconds: Double(sampled) * plant.wait, runQueueSeconds: Double(sampled) * meanQueue,
                    waitingPeak: max(0, plant.tasksInFlight - controllers[i].size),
                    busyQueues: min(controllers[i].size, plant.tasksInFlight),
                    cpuUtilization: min(1, busyTime[i] / length))
                let decision = controllers[i].decide(window)
                runs[i].append((now, decision.size, decision.reason))
                starts[i] = now
                ends[i] = now + decision.nextIntervalSeconds
                completed[i] = 0
                runQueue[i] = 0
                busyTime[i] = 0
            }
        }
    }
}
