#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files: each live stream holds a connection open, and many
/// systems start a process at 1,024.
enum FileLimit {
    /// Raises the soft limit to the hard one.
    ///
    /// - Returns: the limit before and after, or `nil` when it could not be read or set.
    static func raiseToMaximum() -> (before: UInt64, after: UInt64)? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let before = UInt64(limit.rlim_cur)
        guard limit.rlim_cur < limit.rlim_max else { return (before, before) }
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(resource, &limit) == 0 else { return (before, before) }
        return (before, UInt64(limit.rlim_cur))
    }
}
