#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thread-specific keys that own an object: each thread's value is one reference retained with
/// `Unmanaged.passRetained`, released when the thread exits, so a per-thread cache lives exactly
/// as long as its thread.
enum ThreadObjectKey {
    /// A new key whose destructor releases the exiting thread's object. A C destructor cannot
    /// know the object's class; releasing it as `AnyObject` drops the same single reference.
    static func make() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() } }
        return key
    }
}
