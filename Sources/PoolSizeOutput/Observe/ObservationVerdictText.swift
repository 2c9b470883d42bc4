import PoolSizeModel
import PoolSizeObserve

/// The sentence that explains a pool's verdict, from the figures behind it. Pure. It names the
/// observe flags that would narrow an undetermined verdict, as the command's help spells them.
package enum ObservationVerdictText {
    /// `about right`, `CPU-saturated`: the verdict's short name for tables.
    package static func name(_ verdict: PoolVerdict) -> String {
        switch verdict.kind {
        case .oversized: return "oversized"
        case .aboutRight: return "about right"
        case .undersized: return "undersized"
        case .cpuSaturated: return "CPU-saturated"
        case .lockContended: return "lock-bound"
        case .queueing: return "queueing"
        case .undetermined: return "undetermined"
        }
    }

    /// One sentence: the verdict, the figures it rests on and what to do.
    package static func sentence(_ pool: PoolEstimate, cores: CoreCount) -> String {
        let threads = "\(pool.threads) thread\(pool.threads == 1 ? "" : "s")"
        let size = pool.judgedSize.map(range) ?? "–"
        let formula = formulaName(pool, cores: cores)
        let busy = busyText(pool)
        switch pool.verdict.kind {
        case .oversized:
            return
                "oversized: \(threads), more than the \(size) that \(formula) can keep busy\(pool.perTask?.resolvedSize == nil ? " even at W/C's upper bound" : ""); the extra threads can only queue for the \(pool.lockLimited ? "lock" : "CPUs")"
        case .aboutRight:
            if let low = pool.judgedSize?.low, Double(pool.threads) < low.rounded(.down) {
                return
                    "about right for this load: \(threads), \(busy); \(formula) = \(size) would only pay off if the load grew until every thread is busy"
            }
            return "about right: \(threads), within \(formula) = \(size)"
        case .undersized:
            return
                "undersized: \(threads), \(busy), below \(formula) = \(size); tasks likely queue for a thread: grow toward \(pool.judgedSize.map { UnitFormat.number($0.low.rounded(.up)) } ?? "–")"
        case .cpuSaturated:
            return
                "CPU-saturated: the threads wait for a CPU \(UnitFormat.number(pool.queueToCPU ?? 0)) s per second they run (Q/C); do not grow the pool: run-queue time is not wait, and more threads would lengthen the queue"
        case .lockContended:
            return lockSentence(pool, formula: formula, size: size)
        case .queueing:
            let inFlight = UnitFormat.number(pool.perTask?.tasksInFlight ?? 0)
            return
                "queueing: λ·D = \(inFlight) tasks are in the pool on average (Little's law), but it has \(threads): tasks queue before it for a thread — grow toward \(formula) = \(size) — or the latency counts time outside the pool (a queue upstream, the network, the client); give --latency the time inside it"
        case .undetermined:
            switch pool.verdict.reason ?? .noWork {
            case .noWork:
                return "undetermined: the pool used almost no CPU while observed; observe it under load"
            case .tooFewSamples:
                return
                    "undetermined: \(pool.samples) samples are too few; observe longer (--duration) or sample faster (--rate)"
            case .singleThread:
                return
                    "undetermined: one thread, usually a helper (an event loop, a timer, a feeder) whose waits are its own rather than tasks'; its shares and W/C are shown, its size is not judged"
            case .ambiguousWait:
                return ambiguousSentence(pool, threads: threads, formula: formula, size: size)
            }
        }
    }

    /// Why a wide range gives no verdict, and what would pin it.
    static func ambiguousSentence(_ pool: PoolEstimate, threads: String, formula: String, size: String) -> String {
        let ambiguous = UnitFormat.percent(pool.share(.ambiguous)?.fraction ?? 0)
        var text =
            "undetermined: \(threads) lie inside \(formula) = \(size), a range that ambiguous waits (\(ambiguous) of the time: futex, sleeps, epoll/poll/select on pipes, wake-ups or clients' connections, which look the same whether a thread waits for its next task or inside one) widen"
        if PoolVerdict.cpuShort(pool) {
            text +=
                "; the threads also wait for a CPU \(UnitFormat.number(pool.queueToCPU ?? 0)) s per second they run (Q/C), which alone does not make the CPUs the limit while those waits may be tasks', so this is no reason not to grow"
        }
        if let cores = PoolVerdict.lockCores(pool), cores < PoolVerdict.lockBusyCores {
            text +=
                "; the interpreter lock is not shown to be the limit: the threads ran \(UnitFormat.significant(cores)) cores per process, short of the 1 it allows, so futex waits may be sleeps, joins or idle threads as much as waits for the lock"
        }
        text += "; --latency D with --throughput R/s or --counter CMD would resolve them"
        if pool.program?.kind == .postgres {
            text +=
                ", and so would PostgreSQL's own view: pg_stat_activity's wait_event_type says Client (ClientRead: waiting for the next query) or Timeout, Lock, LWLock, IO (inside one)"
        }
        return text
    }

    static func lockSentence(_ pool: PoolEstimate, formula: String, size: String) -> String {
        let runtime = pool.program.map(programName) ?? "the runtime"
        let processes = max(1, pool.processes ?? 1)
        let perProcess = pool.cpuCores / Double(processes)
        // The evidence is the lock's use, not where the other threads blocked: futex holds lock
        // waits, sleeps and joins alike.
        var text =
            "interpreter-lock contention: \(runtime) runs one thread of \(language(pool.program)) at a time per process, and the pool's threads ran \(UnitFormat.significant(perProcess)) cores per process of the 1 the lock allows, so it was nearly never free"
        if PoolVerdict.cpuShort(pool) {
            let queue = UnitFormat.number(pool.queueToCPU ?? 0)
            text += " (they also waited for a CPU \(queue) s per second they ran, Q/C)"
        }
        let running = processes == 1 ? "" : " (it runs \(processes))"
        return text
            + "; do not grow the pool: more threads would only wait for the lock (N = \(formula) = \(size)); to use more cores, run more processes\(running)"
    }

    /// `cores × (1 + W/C)`, or the parallelism an interpreter lock sets.
    static func formulaName(_ pool: PoolEstimate, cores: CoreCount) -> String {
        guard let parallelism = pool.parallelism, pool.lockLimited else { return "cores × (1 + W/C)" }
        let each = parallelism == 1 ? "" : ", one per process"
        return "\(parallelism) (\(language(pool.program))'s lock\(each)) × (1 + W/C)"
    }

    /// `CPython 3.11`, `Ruby 3.2`, `PostgreSQL`.
    package static func programName(_ program: KnownProgram) -> String {
        let version = program.version.map { " " + $0 } ?? ""
        switch program.kind {
        case .cpython: return "CPython" + version
        case .cpythonFreeThreaded: return "CPython" + version + " (free-threaded)"
        case .ruby: return "Ruby" + version
        case .postgres: return "PostgreSQL"
        }
    }

    static func language(_ program: KnownProgram?) -> String {
        switch program?.kind {
        case .cpython?, .cpythonFreeThreaded?: return "Python"
        case .ruby?: return "Ruby"
        default: return "its language"
        }
    }

    /// What the program means for the pool's size, for the detail rows; nil for none.
    package static func programNote(_ pool: PoolEstimate, cores: CoreCount) -> String? {
        guard let program = pool.program else { return nil }
        let name = programName(program) + " (\(program.evidence))"
        switch program.kind {
        case .cpython, .ruby:
            if let parallelism = pool.parallelism {
                return
                    "\(name): an interpreter lock runs one thread of \(language(program)) at a time per process, so N uses parallelism \(parallelism) (one per process that did work) instead of \(cores.effective) cores; --parallelism K overrides"
            }
            if cores.override != nil {
                return
                    "\(name): an interpreter lock runs one thread of \(language(program)) at a time per process; N uses --parallelism \(cores.effective) as given"
            }
            return
                "\(name): an interpreter lock runs one thread of \(language(program)) at a time per process; the pool's \(pool.processes ?? 1) processes cover the \(cores.effective) cores"
        case .cpythonFreeThreaded:
            return "\(name): no interpreter lock, so N uses the cores"
        case .postgres:
            return
                "\(name): a backend waits in epoll_wait both for its client's next query and inside pg_sleep or a lock; pg_stat_activity's wait_event tells them apart"
        }
    }

    /// `25–31% busy`; with `--latency`, λ·D over the threads, one figure.
    static func busyText(_ pool: PoolEstimate) -> String {
        if let inFlight = pool.perTask?.tasksInFlight, pool.threads > 0 {
            return UnitFormat.percent(min(1, inFlight / Double(pool.threads))) + " busy (λ·D over the threads)"
        }
        return percentRange(pool.busy) + " busy"
    }

    /// `9.7–11.2`, or one figure when both ends agree to three digits.
    package static func range(_ value: ValueRange) -> String {
        let low = UnitFormat.number(value.low), high = UnitFormat.number(value.high)
        return low == high ? low : "\(low)–\(high)"
    }

    /// `25–31%`, or `25%`.
    package static func percentRange(_ value: ValueRange) -> String {
        let low = UnitFormat.number(value.low * 100), high = UnitFormat.number(value.high * 100)
        return low == high ? "\(low)%" : "\(low)–\(high)%"
    }
}
