#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its 4 or 16 bytes; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4
/// address, so one client has one key whichever way a proxy writes it.
struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]

    /// Parses the text form (`192.0.2.1`, `2001:db8::1`); nil for anything else, including names and ports.
    init?(_ text: some StringProtocol) {
        guard (2...45).contains(text.utf8.count) else { return nil }
        var v4 = [UInt8](repeating: 0, count: 4)
        var all = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            bytes = v4
        } else if inet_pton(AF_INET6, String(text), &all) == 1 {
            let mapped = all.prefix(10).allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF
            bytes = mapped ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    /// The canonical text form (RFC 5952 for IPv6).
    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var bytes = bytes
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &bytes, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A range of addresses in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`), or one address.
struct IPAddressRange: Sendable, Hashable {
    let network: IPAddress
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parts[0]) else { return nil }
        let bits = network.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.network = network
    }

    func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(address.bytes, network.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard a & mask == b & mask else { return false }
            remaining -= 8
        }
        return true
    }
}
