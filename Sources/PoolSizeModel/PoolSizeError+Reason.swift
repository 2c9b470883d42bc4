import Foundation

extension PoolSizeError {
    /// The POSIX reason behind a Foundation file error (`No space left on device`), else its
    /// description: what the one-line messages of file errors say.
    package static func reason(of error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}
