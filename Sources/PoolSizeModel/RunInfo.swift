/// `machine.json`: where a run ran and what it was asked to do, written before the first trial
/// so even an interrupted run says where it ran. `sweep` records its plan whole (`plan`, the
/// `SweepPlan` it ran, read back by the same type); `observe`, which plans no sweep, records its
/// run id and seed instead. `report`, `plot`, `compare` and `plan` read it through this type.
/// Besides the plan it holds only what the plan does not: the machine, the version, the command
/// line, and what the sweep learnt as it ran (the sizes `auto` chose, the server, the grid saved).
package struct RunInfo: Equatable, Sendable {
    /// What was run.
    package enum Kind: Equatable, Sendable {
        /// A sweep under this plan.
        case sweep(SweepPlan)
        /// `poolsize observe`: its run id and the seed of its sampling schedule (its other
        /// settings are in observation.json).
        case observation(runID: String, seed: UInt64)
    }

    /// A sweep and its plan, or an observation.
    package var kind: Kind
    /// Version of the poolsize that ran.
    package var poolsizeVersion: String?
    /// Its git commit, when built from a checkout.
    package var poolsizeCommit: String?
    /// The command line as typed, executable first.
    package var commandLine: [String]?
    /// The machine: cores, CPU, kernel, toolchain, effective nice per tier. Every machine.json
    /// holds it (the reader requires it); nil only in a value built without it.
    package var machine: MachineFacts?
    /// The pool sizes planned: the explicit list, or the grid `auto` chose once W/C was
    /// measured (grown when it extended). Lets a report name the trials a partial run lacks.
    package var sizes: [Int]?
    /// What an HTTP target said of itself in its `X-Poolsize-Server` header (a
    /// `poolsize serve`: its threads, CPU and delay per request); nil for any other target.
    package var server: String?
    /// Measured trials the exhaustive grid would have run, recorded by an adaptive search so
    /// the summary can say what it saved.
    package var gridTrials: Int?

    /// Run facts around what was run.
    package init(
        _ kind: Kind, poolsizeVersion: String? = nil, poolsizeCommit: String? = nil, commandLine: [String]? = nil,
        machine: MachineFacts? = nil, sizes: [Int]? = nil
    ) {
        self.kind = kind
        self.poolsizeVersion = poolsizeVersion
        self.poolsizeCommit = poolsizeCommit
        self.commandLine = commandLine
        self.machine = machine
        self.sizes = sizes
    }

    /// The sweep's plan; nil for an observation. Setting a plan makes the run a sweep under it
    /// (setting nil changes nothing).
    package var plan: SweepPlan? {
        get {
            if case let .sweep(plan) = kind { return plan }
            return nil
        }
        set {
            if let newValue { kind = .sweep(newValue) }
        }
    }

    /// The run's id (the run directory's default name): the plan's, or the observation's.
    package var runID: String {
        switch kind {
        case let .sweep(plan): return plan.runID
        case let .observation(runID, _): return runID
        }
    }

    /// The seed of every random choice the run made: the plan's, or the observation's.
    package var seed: UInt64 {
        switch kind {
        case let .sweep(plan): return plan.seed
        case let .observation(_, seed): return seed
        }
    }

    /// The trials the plan asks for: each combination, planned size and repetition. nil for an
    /// observation, for an adaptive search, whose trials are decided as it goes, for a range of
    /// arrival rates, and before the sizes are known.
    package var plannedTrials: PlannedTrials? {
        guard let plan, plan.search != .adaptive, plan.load.plansTrialsAhead, let sizes,
            plan.repetitions > 0
        else { return nil }
        return PlannedTrials(combinations: plan.combinations, sizes: sizes, repetitions: plan.repetitions)
    }
}

extension RunInfo: Codable {
    /// Keys as the file spells them once snake_cased (`runId` → `run_id`): a sweep's plan under
    /// `plan`, an observation's `run_id` and `seed`, and the facts beside them.
    enum CodingKeys: String, CodingKey {
        case plan
        case runID = "runId"
        case seed, poolsizeVersion, poolsizeCommit, commandLine, machine, sizes, server, gridTrials
    }

    /// A sweep's machine.json when it holds `plan`, an observation's when it holds `run_id`
    /// instead (and then `seed`); a file with neither lacks the sweep's `plan`. `machine` is
    /// required: a run directory's machine.json exists to say where the run ran.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let plan = try c.decodeIfPresent(SweepPlan.self, forKey: .plan) {
            kind = .sweep(plan)
        } else if c.contains(.runID) {
            kind = .observation(
                runID: try c.decode(String.self, forKey: .runID), seed: try c.decode(UInt64.self, forKey: .seed))
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.plan, .init(codingPath: c.codingPath, debugDescription: "no plan and no run id"))
        }
        poolsizeVersion = try c.decodeIfPresent(String.self, forKey: .poolsizeVersion)
        poolsizeCommit = try c.decodeIfPresent(String.self, forKey: .poolsizeCommit)
        commandLine = try c.decodeIfPresent([String].self, forKey: .commandLine)
        // Both writers (sweep, observe) always record the machine: a file without it is damaged.
        machine = try c.decode(MachineFacts.self, forKey: .machine)
        sizes = try c.decodeIfPresent([Int].self, forKey: .sizes)
        server = try c.decodeIfPresent(String.self, forKey: .server)
        gridTrials = try c.decodeIfPresent(Int.self, forKey: .gridTrials)
    }

    /// The plan, or the observation's id and seed, and the facts that are present.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case let .sweep(plan):
            try c.encode(plan, forKey: .plan)
        case let .observation(runID, seed):
            try c.encode(runID, forKey: .runID)
            try c.encode(seed, forKey: .seed)
        }
        try c.encodeIfPresent(poolsizeVersion, forKey: .poolsizeVersion)
        try c.encodeIfPresent(poolsizeCommit, forKey: .poolsizeCommit)
        try c.encodeIfPresent(commandLine, forKey: .commandLine)
        try c.encodeIfPresent(machine, forKey: .machine)
        try c.encodeIfPresent(sizes, forKey: .sizes)
        try c.encodeIfPresent(server, forKey: .server)
        try c.encodeIfPresent(gridTrials, forKey: .gridTrials)
    }
}
