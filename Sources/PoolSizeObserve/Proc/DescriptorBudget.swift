import PoolSizeProcess
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many /proc files the observer keeps open. A target of 2000 threads needs three files a
/// thread, past the common soft limit of 1024 descriptors: the soft limit is raised to the hard
/// one once, and beyond what that leaves (less a margin for sockets, pipes and output files) a
/// file is opened for each read instead of kept, so no thread goes unread.
final class DescriptorBudget: Sendable {
    static let shared = DescriptorBudget(limit: DescriptorBudget.raisedLimit())

    /// Descriptors left free for everything else the process opens.
    static let margin = 128
    private let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Takes one descriptor to keep; false when none is left (then open, read and close).
    func take() -> Bool {
        while true {
            let now = used.load(ordering: .relaxed)
            guard now < limit else { return false }
            if used.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    /// Gives back a kept descriptor.
    func give() { used.wrappingSubtract(1, ordering: .relaxed) }

    /// Descriptors kept now.
    var kept: Int { used.load(ordering: .relaxed) }

    /// The soft descriptor limit after raising it to the hard one (capped: a hard limit of
    /// "unlimited" would make a huge table), less `margin`.
    static func raisedLimit() -> Int {
        guard var limit = Platform.descriptorLimit() else { return 1024 - margin }
        let cap: rlim_t = 1 << 20
        let wanted = min(limit.rlim_max, cap)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if Platform.setDescriptorLimit(raised) { limit = raised }
        }
        return Int(min(limit.rlim_cur, cap)) - margin
    }
}
