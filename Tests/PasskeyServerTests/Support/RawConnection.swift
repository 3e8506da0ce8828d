import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare TCP connection to the live server on 127.0.0.1, for what an HTTP client will not do: connect and send
/// nothing, or send a request in part. Blocking calls, each bounded by `receiveTimeout`.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What ``receive()`` saw.
    enum Received: Equatable {
        /// Bytes from the server.
        case data([UInt8])
        /// The server closed the connection.
        case closed
        /// Nothing within the receive timeout.
        case nothing
    }

    init(port: Int, receiveTimeout: Duration) throws {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        setReceiveTimeout(receiveTimeout)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let failure = errno
            close(descriptor)
            throw Failure(description: "connect() to port \(port) failed: errno \(failure)")
        }
    }

    /// How long a read waits.
    func setReceiveTimeout(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var timeout = timeval(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes the connection from this side.
    func hangUp() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard sent == bytes.count else { throw Failure(description: "write() sent \(sent) of \(bytes.count) bytes") }
    }

    /// Waits up to the receive timeout for bytes or the end of the connection.
    func receive() -> Received {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 { return .data(Array(buffer.prefix(count))) }
        // A reset (ECONNRESET) is the server closing too.
        return count == 0 || errno == ECONNRESET ? .closed : .nothing
    }

    /// Reads until the server closes the connection or is silent for the receive timeout; returns what it sent.
    func receiveUntilClosed() -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        while true {
            switch receive() {
            case .data(let more): bytes += more
            case .closed: return (String(decoding: bytes, as: UTF8.self), true)
            case .nothing: return (String(decoding: bytes, as: UTF8.self), false)
            }
        }
    }

    /// ``receive()`` on a thread of its own, so that the wait blocks none of the threads the server's tasks run on (on
    /// a 2-core machine two blocked waits would stop the server until they time out).
    func received() async -> Received {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receive()) }.start()
        }
    }

    /// ``receiveUntilClosed()`` on a thread of its own, so that the wait blocks none of the threads the server's
    /// tasks run on.
    func closing() async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receiveUntilClosed()) }.start()
        }
    }

    deinit { close(descriptor) }
}
