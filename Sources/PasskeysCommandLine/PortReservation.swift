import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `passkeys serve --port 0`: a port the system chooses, held from the moment it is chosen until the server listens on
/// it, so that the configuration (the default web origin names the port) and the bound address agree and no other
/// program can take the port in between.
///
/// The port is held by a socket bound with `SO_REUSEADDR` that never listens: the server's own socket (which sets
/// `SO_REUSEADDR` too) may then bind the same address, while the system gives the port to no one else — neither to
/// another `bind` to port 0 nor to an outgoing connection. ``release()`` closes it once the server listens.
final class PortReservation: Sendable {
    let port: Int
    /// The holding socket, until released.
    private let descriptor: Mutex<Int32?>

    private init(port: Int, descriptor: Int32) {
        self.port = port
        self.descriptor = Mutex(descriptor)
    }

    /// Binds a free port on `host` (a name or an address, as `--host` takes it).
    static func reserve(host: String) throws(ReservationError) -> PortReservation {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, "0", &hints, &found)
        guard resolved == 0, let address = found else {
            throw ReservationError("\(host) is not an address this machine can listen on")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { throw ReservationError("no socket could be opened (errno \(errno))") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let port = withUnsafeMutablePointer(to: &bound) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress -> Int? in
                guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
                    getsockname(descriptor, socketAddress, &length) == 0
                else { return nil }
                if socketAddress.pointee.sa_family == sa_family_t(AF_INET6) {
                    return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin6_port))
                    }
                }
                return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        }
        guard let port, port > 0 else {
            close(descriptor)
            throw ReservationError("no free port could be bound on \(host)")
        }
        return PortReservation(port: port, descriptor: descriptor)
    }

    /// Lets the port go once the server listens on it (or has failed); later calls do nothing.
    func release() {
        descriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    struct ReservationError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
