import Foundation

/// The backend API keys, held only as SHA-256 hashes, with what each may do.
struct APIKeys: Sendable {
    private let keys: [(key: ServerConfiguration.APIKey, hash: [UInt8])]

    init(_ configured: [ServerConfiguration.APIKey]) {
        keys = configured.compactMap { key in
            if let secret = key.key { return (key, Secrets.hash(secret)) }
            guard let hex = key.sha256 else { return nil }
            var bytes = [UInt8]()
            var index = hex.startIndex
            while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return (key, bytes)
        }
    }

    /// The configured key `presented` is, if any. Every key is compared, in constant time.
    func key(for presented: String) -> ServerConfiguration.APIKey? {
        let hash = Secrets.hash(presented)
        var found: ServerConfiguration.APIKey?
        for key in keys where Secrets.constantTimeEqual(key.hash, hash) { found = key.key }
        return found
    }
}
