import Foundation

/// The reverse proxies in front of the server (`limits.trustedProxies`), and the client address they report.
///
/// `X-Forwarded-For` is written by whoever sent the request: each proxy appends the address it received the
/// request from, so only the entries that our own proxies appended can be believed. The header is read from the
/// right, skipping the hops that are trusted proxies, and the first untrusted address is the client. Without
/// configured proxies, or for a request that did not come from one, the header is ignored.
struct TrustedProxies: Sendable {
    let ranges: [IPAddressRange]

    /// At most this many entries of `X-Forwarded-For` are read (from the right).
    static let maximumHops = 16

    /// The client's address: the connection's peer, or what the trusted proxies in front of it report.
    func clientAddress(peer: String?, forwardedFor headers: [String]) -> String? {
        guard let peer, let peerAddress = IPAddress(peer) else { return peer }
        guard isTrusted(peerAddress) else { return peerAddress.description }
        var client = peerAddress
        let hops = headers.joined(separator: ",").split(separator: ",").suffix(Self.maximumHops + 1).reversed()
        for (index, hop) in hops.enumerated() {
            // A hop that is not an address, or more hops than we read, ends the walk at the last trusted proxy.
            guard index < Self.maximumHops, let address = IPAddress(hop.trimmingCharacters(in: .whitespaces)) else {
                break
            }
            client = address
            if !isTrusted(address) { break }
        }
        return client.description
    }

    private func isTrusted(_ address: IPAddress) -> Bool { ranges.contains { $0.contains(address) } }
}
