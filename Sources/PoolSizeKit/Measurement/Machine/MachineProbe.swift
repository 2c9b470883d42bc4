import CPoolSizeSys
import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

private final class NiceBox: Sendable { let value = Atomic<Int>(0) }

/// Gathers the machine facts recorded with every run.
package enum MachineProbe {
    package static func coreCount(override: Int? = nil) -> CoreCount {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let affinity = Int(poolsize_affinity_cpu_count())
        return CoreCount(
            online: online, affinity: affinity > 0 ? affinity : online, cgroupQuota: CgroupQuota.current(),
            override: override)
    }

    package static func facts(coreOverride: Int? = nil) -> MachineFacts {
        MachineFacts(
            cores: coreCount(override: coreOverride),
            cpuModel: cpuModel(),
            kernel: kernel(),
            swiftVersion: swiftVersion,
            timerSlackNanoseconds: (try? String(contentsOfFile: "/proc/self/timerslack_ns", encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            },
            effectiveNiceByTier: effectiveNiceByTier(),
            hostname: ProcessInfo.processInfo.hostName)
    }

    /// The nice value a serial queue of each tier actually runs its blocks at, read from inside
    /// the block (libdispatch sets it per worker thread; unprivileged, negative values fail).
    /// `async`, not `sync`: a sync block may run on the calling thread and report its nice.
    package static func effectiveNiceByTier() -> [String: Int] {
        var result: [String: Int] = [:]
        for tier in QoSTier.allCases {
            let queue = DispatchQueue(label: "poolsize.probe.nice.\(tier.rawValue)", qos: tier.dispatchQoS)
            if let nice = niceOfWorker(on: queue) { result[tier.rawValue] = nice }
        }
        return result
    }

    /// Nice value of the calling thread (Linux keeps nice per thread).
    package static func niceOfCurrentThread() -> Int { Int(WorkerThread.nice()) }

    /// Nice value of the worker that runs a block submitted asynchronously to `queue`; nil when
    /// no worker picks the block up within `timeoutSeconds` (the tool must never hang on a probe).
    package static func niceOfWorker(on queue: DispatchQueue, timeoutSeconds: Double = 5) -> Int? {
        let done = DispatchSemaphore(value: 0)
        let box = NiceBox()
        queue.async {
            box.value.store(Int(WorkerThread.nice()), ordering: .relaxed)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeoutSeconds) == .success else { return nil }
        return box.value.load(ordering: .relaxed)
    }

    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
                ?? "unknown"
        }
        return "unknown"
    }

    static func kernel() -> String {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(name.sysname)) \(field(name.release)) \(field(name.machine))"
    }

    /// The compiler that built this binary.
    package static let swiftVersion: String = {
        #if compiler(>=6.4)
            return "6.4+"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #else
            return "6.1 or older"
        #endif
    }()
}
