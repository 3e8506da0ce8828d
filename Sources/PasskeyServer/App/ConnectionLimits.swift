#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the server holds open at once, from `limits.maxConnections` and the process's
/// file-descriptor limit.
///
/// Every connection is a file descriptor; when the process runs out of them it can accept nothing (not even
/// `/health`), open no file and write no crash report. So at start the soft limit is raised to the hard one, and
/// the connections may use all but a reserve of it: the rest stays for the database, log files and the
/// connections the server itself opens. At the maximum, ``ConnectionEviction`` closes the oldest connection that has
/// sent no request to keep a place free; when all have sent one, clients beyond the maximum wait in the listen queue
/// until a connection closes, and the read and idle timeouts make sure one does.
public struct ConnectionLimits: Sendable, Equatable {
    /// The process's file-descriptor limits after raising, or nil where they cannot be read.
    public var softDescriptorLimit: Int?
    public var hardDescriptorLimit: Int?
    /// The connections the server holds open at once.
    public var maximumConnections: Int

    /// Descriptors kept back from connections: an eighth of the limit, at least 64.
    static func reserve(for descriptorLimit: Int) -> Int { max(64, descriptorLimit / 8) }

    /// The maximum for `configured` connections under a soft descriptor limit of `descriptorLimit`.
    public static func maximum(configured: Int, descriptorLimit: Int?) -> Int {
        guard let descriptorLimit else { return configured }
        return max(1, min(configured, descriptorLimit - reserve(for: descriptorLimit)))
    }

    /// Raises the soft file-descriptor limit to the hard one (capped at 1,048,576) and works out the maximum.
    public static func atStart(configured: Int) -> ConnectionLimits {
        let limits = raiseDescriptorLimit()
        return ConnectionLimits(
            softDescriptorLimit: limits?.soft,
            hardDescriptorLimit: limits?.hard,
            maximumConnections: maximum(configured: configured, descriptorLimit: limits?.soft)
        )
    }

    private static func raiseDescriptorLimit() -> (soft: Int, hard: Int)? {
        var limit = rlimit()
        #if canImport(Darwin)
        let resource = RLIMIT_NOFILE
        #else
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let wanted = min(limit.rlim_max, 1_048_576)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            // Refused (Darwin caps the soft limit below an unlimited hard one): keep the soft limit as it is.
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
    }
}
