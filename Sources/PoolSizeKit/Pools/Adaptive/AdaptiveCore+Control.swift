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
                SizeStep(
                    seconds: Double(now &- state.startNanoseconds) / 1e9, size: decision.size,
                    throughputPerSecond: window.throughputPerSecond))
            if state.steps.count > AdaptiveControlState.maximumSteps { state.steps.removeFirst(state.steps.count / 10) }
            return decision
        }
    }
}
