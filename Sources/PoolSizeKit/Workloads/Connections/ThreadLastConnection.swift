#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The connection slot the calling thread used last, per thread: a `ConnectionFreeList` tries it
/// first, so a pool thread keeps its own connection without touching the list's lock.
enum ThreadLastConnection {
    /// The slot the calling thread last took from list `owner`, or nil.
    static func slot(owner: UInt64) -> AnyObject? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let box = Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue()
        return box.owner == owner ? box.slot : nil
    }

    /// Remembers `slot` of list `owner` as the calling thread's.
    static func remember(_ slot: AnyObject, owner: UInt64) {
        if let raw = pthread_getspecific(key) {
            let box = Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue()
            box.owner = owner
            box.slot = slot
            return
        }
        pthread_setspecific(key, Unmanaged.passRetained(Box(owner: owner, slot: slot)).toOpaque())
    }

    /// A number no other list has had in this process; never 0.
    static func nextOwner() -> UInt64 { owners.wrappingAdd(1, ordering: .relaxed).newValue }

    private static let owners = Atomic<UInt64>(0)

    private final class Box {
        var owner: UInt64
        var slot: AnyObject?
        init(owner: UInt64, slot: AnyObject) {
            self.owner = owner
            self.slot = slot
        }
    }

    private static let key = ThreadObjectKey.make()
}
