import PoolSizeModel

extension AdaptiveCore {
    /// Ends the current window: gathers what the queues counted since the last one, lets the
    /// controller decide, applies the size and records the step. The timer calls it; tests call
    /// it directly (`runsTimer: false`).
    @discardableResult
    package func tick() -> AdaptiveDecision {
        control.withLock { state in
            if state.stopped {
                let interval = state.controller.settings.intervalSeconds
                return AdaptiveDecision(size: size, reason: .hold, nextIntervalSeconds: interval)
            }
            let now = clocks.wallNanoseconds()
            let processCPU = clocks.processUsage().cpuNanoseconds
            let seconds = Double(now &- state.lastNanoseconds) / 1e9
            let current = size
            var finished: UInt64 = 0
            var sampled: UInt64 = 0
            var cpu: UInt64 = 0
            var wall: UInt64 = 0
            var queued: UInt64 = 0
            var busy = 0
            var stuck = 0
            var waitingPeak = 0
            var waitingNow = 0
            if state.lastFinished.count < state.highWater {
                state.lastFinished += Array(repeating: 0, count: state.highWater - state.lastFinished.count)
            }
            for (index, slot) in slots.prefix(state.highWater).enumerated() {
                let done = slot.finished.load(ordering: .relaxed)
                let running = slot.started.load(ordering: .relaxed) != done
                if index < current && running {
                    busy += 1
                    // A queue that finished nothing all window and still runs a task is blocked in it.
                    if done == state.lastFinished[index] { stuck += 1 }
                }
                state.lastFinished[index] = done
                waitingPeak += slot.pending.takePeak()
                waitingNow += slot.pending.count
                finished &+= done
                sampled &+= slot.sampled.load(ordering: .relaxed)
                cpu &+= slot.cpuNanoseconds.load(ordering: .relaxed)
                wall &+= slot.wallNanoseconds.load(ordering: .relaxed)
                queued &+= slot.runQueueNanoseconds.load(ordering: .relaxed)
            }
            let dCPU = Double(cpu &- state.lastCPU) / 1e9
            let dWall = Double(wall &- state.lastWall) / 1e9
            let dQueue = Double(queued &- state.lastRunQueue) / 1e9
            let window = AdaptiveWindow(
                seconds: seconds, completed: Int(finished &- state.previousFinished),
                sampledTasks: Int(sampled &- state.lastSampled), cpuSeconds: dCPU,
                waitSeconds: max(0, dWall - dCPU - dQueue), runQueueSeconds: dQueue, waitingPeak: waitingPeak,
                waitingNow: waitingNow, busyQueues: busy,
                everyQueueBlocked: current > 0 && stuck == current && waitingPeak > 0,
                cpuUtilization: Double(processCPU &- state.lastProcessCPU) / 1e9 / max(1e-9, seconds)
                    / Double(state.controller.settings.cores))
            let decision = state.controller.decide(window)
            let sinceStart = Double(now &- state.startNanoseconds) / 1e9
            state.windows += 1
            state.lastUtilization = window.cpuUtilization
            if decision.size != current {
                state.changes.append(
                    AdaptivePoolStatus.Change(
                        seconds: sinceStart, size: decision.size, reason: decision.reason.rawValue,
                        throughputPerSecond: window.throughputPerSecond))
                if state.changes.count > AdaptiveControlState.maximumChanges { state.changes.removeFirst() }
            }
            resize(to: decision.size)
            state.highWater = max(state.highWater, decision.size)
            // About 32 timed tasks a window: enough for W/C, few enough to cost nothing.
            let every = max(1, window.completed / 32)
            for slot in slots.prefix(state.highWater) { slot.sampleEvery.store(every, ordering: .relaxed) }
            state.previousFinished = finished
            state.lastSampled = sampled
            state.lastCPU = cpu
            state.lastWall = wall
            state.lastRunQueue = queued
            state.lastNanoseconds = now
            state.lastProcessCPU = processCPU
            state.steps.append(
                SizeStep(seconds: sinceStart, size: decision.size, throughputPerSecond: window.throughputPerSecond))
            if state.steps.count > AdaptiveControlState.maximumSteps { state.steps.removeFirst(state.steps.count / 10) }
            return decision
        }
    }
}

extension AdaptiveCore {
    /// What the pool measured and decided so far (`AdaptiveQueuePool.status`).
    func status(minimum: Int, maximum: Int) -> AdaptivePoolStatus {
        control.withLock { state in
            let used = slots.prefix(max(state.highWater, size))
            let finished = used.reduce(0) { $0 &+ $1.finished.load(ordering: .relaxed) }
            let estimate = state.controller.estimate
            return AdaptivePoolStatus(
                size: size, minimum: minimum, maximum: maximum, cores: state.controller.settings.cores,
                tasksFinished: Int(finished), tasksWaiting: used.reduce(0) { $0 + $1.pending.count },
                sampledTasks: estimate.tasks, cpuSecondsPerTask: estimate.cpuSecondsPerTask,
                waitCPURatio: estimate.waitCPURatio, formulaSize: state.controller.formulaSize,
                windows: state.windows, cpuUtilization: state.lastUtilization, changes: state.changes)
        }
    }

    /// Waits until the queues have finished `submitted()` tasks in all. Each pass waits for every
    /// queue ever active to run what it holds; work the controller dealt to a new queue during a
    /// pass is waited for by the next, so the pool keeps resizing while it drains.
    func waitUntilIdle(submitted: () -> UInt64) {
        while true {
            let target = submitted()
            drain()
            let used = control.withLock { $0.highWater }
            let queues = slots.prefix(max(used, size))
            let finished = queues.reduce(0) { $0 &+ $1.finished.load(ordering: .acquiring) }
            let running = queues.contains {
                $0.started.load(ordering: .acquiring) != $0.finished.load(ordering: .acquiring)
            }
            if finished >= target && !running && waiting == 0 { return }
        }
    }
}
