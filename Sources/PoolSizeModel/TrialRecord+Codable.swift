extension TrialRecord: Codable {
    /// The keys the record has always been encoded with, one per figure: the loop is kept as the
    /// optional `openLoop` it was stored as, absent for a closed-loop trial, so an encoded record
    /// reads the same before and after the loop became a case.
    enum CodingKeys: String, CodingKey {
        case runID, workload, pool, qos, primitive, poolSize, repetition, tasks, wallSeconds, throughputPerSecond,
            cpuMicrosecondsPerTask, waitMicrosecondsPerTask, waitCPURatio, utilization, peakConcurrency, threads,
            effectiveNice, integrity, criticalSections, latency, execution, voluntaryContextSwitches,
            involuntaryContextSwitches, maxRSSKilobytes, processThreads, otherLoad, invalidReason, errors, sizeSteps
        case driverCPUMicrosecondsPerRequest, windowEnd, throughputMargin
        /// The loop, under the name of the optional it was stored as.
        case loop = "openLoop"
        /// What the source watched, under the name of its case with figures: a database's.
        case watched = "database"
        /// A server's processes (`Watched.server`).
        case server
    }

    /// A record as `encode(to:)` writes it; a missing `openLoop` is a closed-loop trial.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        runID = try c.decode(String.self, forKey: .runID)
        workload = try c.decode(String.self, forKey: .workload)
        pool = try c.decode(PoolKind.self, forKey: .pool)
        qos = try c.decode(QoSTier.self, forKey: .qos)
        primitive = try c.decode(PrimitiveKind.self, forKey: .primitive)
        poolSize = try c.decode(Int.self, forKey: .poolSize)
        repetition = try c.decode(Int.self, forKey: .repetition)
        tasks = try c.decode(Double.self, forKey: .tasks)
        wallSeconds = try c.decode(Double.self, forKey: .wallSeconds)
        throughputPerSecond = try c.decode(Double.self, forKey: .throughputPerSecond)
        cpuMicrosecondsPerTask = try c.decode(Double.self, forKey: .cpuMicrosecondsPerTask)
        waitMicrosecondsPerTask = try c.decode(Double.self, forKey: .waitMicrosecondsPerTask)
        waitCPURatio = try c.decode(Double.self, forKey: .waitCPURatio)
        utilization = try c.decode(Double.self, forKey: .utilization)
        peakConcurrency = try c.decode(Int.self, forKey: .peakConcurrency)
        threads = try c.decode(Int.self, forKey: .threads)
        effectiveNice = try c.decode(Int.self, forKey: .effectiveNice)
        integrity = try c.decode(Integrity.self, forKey: .integrity)
        criticalSections = try c.decode(Int.self, forKey: .criticalSections)
        latency = try c.decode(LatencyPercentiles.self, forKey: .latency)
        execution = try c.decode(LatencyPercentiles.self, forKey: .execution)
        voluntaryContextSwitches = try c.decode(Int.self, forKey: .voluntaryContextSwitches)
        involuntaryContextSwitches = try c.decode(Int.self, forKey: .involuntaryContextSwitches)
        maxRSSKilobytes = try c.decode(Int.self, forKey: .maxRSSKilobytes)
        processThreads = try c.decode(Int.self, forKey: .processThreads)
        otherLoad = try c.decode(Double.self, forKey: .otherLoad)
        invalidReason = try c.decodeIfPresent(String.self, forKey: .invalidReason)
        errors = try c.decode(Int.self, forKey: .errors)
        driverCPUMicrosecondsPerRequest =
            try c.decodeIfPresent(Double.self, forKey: .driverCPUMicrosecondsPerRequest) ?? 0
        windowEnd = try c.decodeIfPresent(WindowEnd.self, forKey: .windowEnd) ?? .planned
        throughputMargin = try c.decodeIfPresent(Double.self, forKey: .throughputMargin)
        loop = Loop(figures: try c.decodeIfPresent(OpenLoopFigures.self, forKey: .loop))
        sizeSteps = try c.decode([SizeStep].self, forKey: .sizeSteps)
        // A server's figures hold its database's, if any: the server's key first.
        watched =
            try c.decodeIfPresent(ServerFigures.self, forKey: .server).map(Watched.server)
            ?? c.decodeIfPresent(DatabaseFigures.self, forKey: .watched).map(Watched.database) ?? .nothing
    }

    /// Every figure under its name; `openLoop` only for an open-loop trial.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(runID, forKey: .runID)
        try c.encode(workload, forKey: .workload)
        try c.encode(pool, forKey: .pool)
        try c.encode(qos, forKey: .qos)
        try c.encode(primitive, forKey: .primitive)
        try c.encode(poolSize, forKey: .poolSize)
        try c.encode(repetition, forKey: .repetition)
        try c.encode(tasks, forKey: .tasks)
        try c.encode(wallSeconds, forKey: .wallSeconds)
        try c.encode(throughputPerSecond, forKey: .throughputPerSecond)
        try c.encode(cpuMicrosecondsPerTask, forKey: .cpuMicrosecondsPerTask)
        try c.encode(waitMicrosecondsPerTask, forKey: .waitMicrosecondsPerTask)
        try c.encode(waitCPURatio, forKey: .waitCPURatio)
        try c.encode(utilization, forKey: .utilization)
        try c.encode(peakConcurrency, forKey: .peakConcurrency)
        try c.encode(threads, forKey: .threads)
        try c.encode(effectiveNice, forKey: .effectiveNice)
        try c.encode(integrity, forKey: .integrity)
        try c.encode(criticalSections, forKey: .criticalSections)
        try c.encode(latency, forKey: .latency)
        try c.encode(execution, forKey: .execution)
        try c.encode(voluntaryContextSwitches, forKey: .voluntaryContextSwitches)
        try c.encode(involuntaryContextSwitches, forKey: .involuntaryContextSwitches)
        try c.encode(maxRSSKilobytes, forKey: .maxRSSKilobytes)
        try c.encode(processThreads, forKey: .processThreads)
        try c.encode(otherLoad, forKey: .otherLoad)
        try c.encodeIfPresent(invalidReason, forKey: .invalidReason)
        try c.encode(errors, forKey: .errors)
        if driverCPUMicrosecondsPerRequest > 0 {
            try c.encode(driverCPUMicrosecondsPerRequest, forKey: .driverCPUMicrosecondsPerRequest)
        }
        if windowEnd != .planned { try c.encode(windowEnd, forKey: .windowEnd) }
        try c.encodeIfPresent(throughputMargin, forKey: .throughputMargin)
        try c.encodeIfPresent(openLoop, forKey: .loop)
        try c.encode(sizeSteps, forKey: .sizeSteps)
        if let server = watched.server {
            try c.encode(server, forKey: .server)
        } else {
            try c.encodeIfPresent(watched.database, forKey: .watched)
        }
    }
}
